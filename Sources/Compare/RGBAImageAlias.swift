import Support

/// The one straight-RGBA image type, shared with Render (decoded pictures, encoders).
public typealias RGBAImage = Support.RGBAImage
