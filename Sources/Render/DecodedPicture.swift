import Codecs
import Support

extension RasterImage {
    /// A PNG, JPEG or WebP picture decoded (the declared size checked against `maxPixels`
    /// before anything is allocated); what cannot be read is a `RenderError.image`.
    package init(decoding bytes: [UInt8], maxPixels: Int = PixelLimit.defaultPixels) throws {
        let image: RGBAImage
        do {
            image = try ImageDecoder.decode(bytes, maxPixels: maxPixels)
        } catch {
            throw RenderError.image(error.description)
        }
        do { try self.init(image) } catch { throw RenderError.image("\(error)") }
    }
}
