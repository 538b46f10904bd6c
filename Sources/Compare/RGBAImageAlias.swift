import Support

/// The one straight-RGBA image type, shared with Render (decoded pictures, encoders).
package typealias RGBAImage = Support.RGBAImage
