public enum HighlightPlaceholder {}
