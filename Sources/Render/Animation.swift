import Codecs
import CCairo
import Motion
import Support

/// The containers an animated card is written as.
package enum AnimationFormat: String, CaseIterable, Sendable {
    /// Animated WebP (lossy, or lossless with `EncodeOptions.lossless`).
    case webp
    /// Animated PNG (APNG), lossless.
    case apng
    /// An AVIF image sequence (AV1).
    case avif
    /// H.264 video in an MP4 file, through ffmpeg.
    case mp4

    /// The container a file name's extension asks for: .webp, .png or .apng, .avif, .mp4.
    package init?(extension ext: String) {
        switch ext.lowercased() {
        case "webp": self = .webp
        case "png", "apng": self = .apng
        case "avif": self = .avif
        case "mp4": self = .mp4
        default: return nil
        }
    }

    /// What messages call the extensions.
    package static let extensionList = ".webp, .png (APNG), .avif or .mp4"
}

/// What an animation needs from the caller's world besides the scene: where ffmpeg is (MP4
/// only; nil when it is not installed) and a private temporary folder for its file.
package struct AnimationTools: Sendable {
    package var ffmpeg: String?
    package var temporaryFolder: String?
    package init(ffmpeg: String? = nil, temporaryFolder: String? = nil) {
        (self.ffmpeg, self.temporaryFolder) = (ffmpeg, temporaryFolder)
    }
}

/// Figures of one animation render: frames in the file, frames drawn (the others repeated an
/// identical frame).
package struct AnimationReport: Sendable, Equatable {
    package var frames: Int
    package var drawn: Int
}

extension Renderer {
    /// Draws an animated scene frame by frame and encodes it as `format`. The layout is the
    /// scene's, made once; what stands still before the first moving item is drawn once (a
    /// base every frame starts from); frames whose items are all as at the end are the still
    /// card, drawn once; a frame identical to the one before is not drawn again. The last frame
    /// is the still card, pixel for pixel. Frames are drawn into one canvas at a time and
    /// handed to the encoder at once, so memory does not grow with their number.
    package func animate(_ scene: Scene, timing: AnimationTiming, as format: AnimationFormat, options: RenderOptions,
                         tools: AnimationTools = AnimationTools()) throws -> (bytes: [UInt8], report: AnimationReport) {
        try scene.validate()
        var options = options
        options.format = .png
        let (width, height) = try Renderer.pixelSize(width: scene.width, height: scene.height, options: options)
        // Timelines and parts, once: items with effects of their own or on some of their spans.
        var moving: [Int: MovingItem] = [:]
        for (index, item) in scene.items.enumerated() {
            if let entry = MovingItem(item, effects: scene.motion[index] ?? []) { moving[index] = entry }
        }
        let end = moving.values.map(\.end).max() ?? 0
        let count = timing.frameCount(effectsEnd: end)
        guard count <= AnimationTiming.maxFrames else {
            throw RenderError.invalidOption("the animation has \(count) frames; at most \(AnimationTiming.maxFrames) are drawn (lower fps or duration)")
        }
        // Every frame is a canvas drawn: frames x pixels is bounded as one render's pixels are,
        // times the frames a 1080x1920 story of a minute at 30 fps needs at most.
        let (total, overflow) = (width * height).multipliedReportingOverflow(by: count)
        guard !overflow, total <= Renderer.animationPixelFactor * options.maxPixels else {
            throw RenderError.invalidOption("\(count) frames of \(width)x\(height) are more than \(Renderer.animationPixelFactor) times the pixel limit (\(options.maxPixels)) drawn; lower fps, duration or size")
        }
        // A still render's memory (its canvas, layers, pictures and glyphs), and the canvases an
        // animation holds besides: the base, a second frame canvas, the finished card, the
        // encoder's previous frame and a straight-alpha copy for WebP; an AVIF sequence's
        // encoder also holds the frames it looks ahead over.
        try options.memory?.reserve(scene.workingBytes(pixels: (width, height), format: .png, encoding: options.encoding)
                                    + 5 * width * height * 4
                                    + (format == .avif ? Scene.sequenceEncoderBytes(width * height, options.encoding) : 0))
        let faces = try FontFaces.of(scene, in: fonts, textMapped: false)
        let opaque = scene.background.isOpaque
        let background = try backgrounds.pixels(scene.background, width: scene.width, height: scene.height, scale: options.scale,
                                                pixelWidth: width, pixelHeight: height)
        let encoder = try makeEncoder(format, width: width, height: height, timing: timing, options: options, opaque: opaque, tools: tools)

        func canvas(from pixels: [UInt8]?) throws -> Canvas {
            let canvas = try Canvas(format: .png, pixelWidth: width, pixelHeight: height, opaque: opaque, background: pixels)
            if !canvas.startsWithBackground {
                cairo_save(canvas.context)
                cairo_scale(canvas.context, options.scale, options.scale)
                try BackgroundPainter.paint(canvas.context, scene.background, width: scene.width, height: scene.height, scale: options.scale)
                cairo_restore(canvas.context)
            }
            return canvas
        }
        func pixels(_ canvas: Canvas) -> [UInt8] {
            cairo_surface_flush(canvas.surface)
            let stride = Int(cairo_image_surface_get_stride(canvas.surface))
            return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(canvas.surface), count: stride * height))
        }
        func drawStill(_ canvas: Canvas, _ range: Range<Int>) throws {
            cairo_save(canvas.context)
            cairo_scale(canvas.context, options.scale, options.scale)
            for index in range {
                try Renderer.drawItem(scene, index, on: canvas, faces: faces, pixelSize: (width, height), options: options, tagged: false)
            }
            cairo_restore(canvas.context)
        }

        // The base: the background and the items before the first that moves.
        let first = moving.keys.min() ?? scene.items.count
        let drawnBase: [UInt8]? = first == 0 ? background : try {
            let c = try canvas(from: background)
            try drawStill(c, 0..<first)
            return pixels(c)
        }()
        var still: Canvas?
        // One canvas for the moving frames, set to the base before each (a base is needed
        // when the first item moves too: the background's pixels, or the painted background).
        let base = try drawnBase ?? pixels(canvas(from: nil))
        let frameCanvases = [try canvas(from: base), try canvas(from: base)]
        let pipeline = FramePipeline(encoder, width: width, height: height, opaque: opaque)
        // Whatever ends the loop, the encoder thread is done with the canvases before they go.
        defer { pipeline.drain() }
        var previous: [Int: MotionState]?
        var drawn = 0, turn = 0
        for frame in 0..<count {
            try options.cancellation.check()
            let t = Double(frame) / Double(timing.fps)
            var states: [Int: MotionState] = [:]
            if frame < count - 1 {
                for (index, entry) in moving {
                    let state = entry.state(at: t)
                    if !state.isFinal { states[index] = state }
                }
            }
            if let previous, previous == states {
                pipeline.extend()
                continue
            }
            previous = states
            drawn += 1
            if states.isEmpty {
                if still == nil {
                    let c = try canvas(from: base)
                    try drawStill(c, first..<scene.items.count)
                    still = c
                }
                pipeline.add(still!, turn: nil)
                continue
            }
            // Drawn while the encoder reads the other canvas.
            turn = 1 - turn
            try pipeline.acquire(turn)
            let c = frameCanvases[turn]
            c.reset(to: base)
            cairo_save(c.context)
            cairo_scale(c.context, options.scale, options.scale)
            for index in first..<scene.items.count {
                guard let state = states[index], let entry = moving[index] else {
                    try Renderer.drawItem(scene, index, on: c, faces: faces, pixelSize: (width, height), options: options, tagged: false)
                    continue
                }
                try MotionPainter.draw(c.context, scene.items[index], state: state, moving: entry, faces: faces, scale: options.scale)
                // A restricted block's hidden lines: only ever blurred, faded in by `restricted`.
                if case let .text(text) = scene.items[index], let restriction = text.restriction,
                   let boundary = restriction.boundary(in: text.layout), state.alpha > 0 {
                    try RestrictedLayer.apply(scene, index: index, text: text, restriction: restriction,
                                              boundary: (text.y + boundary) * options.scale, feather: restriction.feather * options.scale,
                                              faces: faces, output: c, canvasSize: (width, height), options: options,
                                              strength: state.blur * state.alpha)
                }
                try Cairo.check(context: c.context, "drawing frame \(frame + 1)")
            }
            cairo_restore(c.context)
            pipeline.add(c, turn: turn)
        }
        try options.cancellation.check()
        var bytes = try pipeline.finish()
        if format == .webp, let description = options.encoding.description {
            bytes = ImageDescription.embed(description, in: bytes, format: .webp)
        }
        return (bytes, AnimationReport(frames: count, drawn: drawn))
    }

    /// How many times the pixel limit an animation may draw in all its frames.
    package static let animationPixelFactor = AnimationFrames.pixelFactor

    private func makeEncoder(_ format: AnimationFormat, width: Int, height: Int, timing: AnimationTiming, options: RenderOptions,
                             opaque: Bool, tools: AnimationTools) throws -> FrameEncoder {
        switch format {
        case .webp:
            return try WebPAnimation(width: width, height: height, fps: timing.fps, loop: timing.loop, options: options.encoding)
        case .apng:
            return APNGWriter(fps: timing.fps, loop: timing.loop)
        case .avif:
            return try AVIFSequence(fps: timing.fps, loop: timing.loop, options: options.encoding)
        case .mp4:
            guard let ffmpeg = tools.ffmpeg else {
                throw RenderError.invalidOption("writing MP4 needs ffmpeg, which is not installed (Debian: apt-get install ffmpeg)")
            }
            guard let folder = tools.temporaryFolder else { throw RenderError.invalidOption("writing MP4 needs a temporary folder") }
            return try VideoEncoder(ffmpeg: ffmpeg, folder: folder, width: width, height: height, fps: timing.fps, opaque: opaque)
        }
    }
}
