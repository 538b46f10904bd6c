import Codecs

/// Issue 52's readers of untrusted files: any bytes as an animation `compare` reads (an
/// animated WebP through libwebpdemux, an APNG composed by `APNGReader`), every frame read
/// within the harness's pixel limit. An error is a fine answer.
extension Harness {
    static func animation(_ data: [UInt8]) {
        guard let frames = try? AnimationFrames(data, maxPixels: 300_000) else { return }
        var count = 0
        while count <= frames.count, let frame = try? frames.next() {
            precondition(frame.image.pixels.count == frames.width * frames.height * 4, "a frame is not the canvas's size")
            count += 1
        }
    }
}
