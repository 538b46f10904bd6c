/// Where a drawn hyphen belongs. Unicode leaves the visible form of a soft hyphen to the
/// script: scripts written without hyphens (CJK, South-East Asian, Arabic, Hebrew) get none.
/// An emergency break inside a word (one longer than the line) gets a hyphen only in the
/// scripts that hyphenate words: Latin, Cyrillic, Greek, Armenian, Georgian.
enum Hyphens {
    static let softHyphen: Unicode.Scalar = "\u{00AD}"

    /// ISO 15924 tags as the ICU shim returns them.
    private static let hyphenating: Set<UInt32> = Set(["Latn", "Cyrl", "Grek", "Armn", "Geor"].map(openTypeTag))
    private static let withoutHyphens: Set<UInt32> = Set(["Hani", "Hira", "Kana", "Hang", "Thai", "Laoo", "Khmr", "Mymr",
                                                          "Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Tibt", "Bopo", "Yiii"].map(openTypeTag))

    static func softHyphenShows(script: UInt32) -> Bool { !withoutHyphens.contains(script) }
    static func emergencyHyphen(script: UInt32) -> Bool { hyphenating.contains(script) }

    /// Whether a cluster is (part of) a word: letters and marks, where a mid-word cut gets a hyphen.
    static func isWordCluster(_ cluster: Cluster) -> Bool {
        guard let first = cluster.scalars.first else { return false }
        return first.properties.isAlphabetic
    }
}
