import Codecs
import Dispatch
import Synchronization
import Compare
import Support

/// What to do with two images of different sizes: `fail` (the rule everywhere unless asked:
/// the verdict is size-mismatch, every pixel of the larger counts, read from the headers with
/// nothing decoded) or `pad` (`compare` and `render --expect` may ask: compared on the larger
/// canvas, the area outside either image counted as different).
package enum SizeMismatch: String, CaseIterable, Sendable {
    case fail, pad
}

/// Which of the two images a problem is about.
package enum ComparedImage: String, Sendable {
    case expected, actual
}

/// An image that cannot be compared: it does not decode, or it is over the pixel limit.
package struct ComparisonError: Error, CustomStringConvertible, Sendable {
    /// The image at fault; nil for the pair (a padded canvas over the limit).
    package var image: ComparedImage?
    package var reason: String
    package var description: String { reason }
}

/// The one comparison behind `compare` (files and folders), `render --expect`, golden suites,
/// `POST /v1/compare` and HLRenderKit: encoded PNG, JPEG or WebP images in, a verdict out.
///
/// 0. Each image's declared size is checked against `maxPixels` from its header.
/// 1. Byte-identical files match without comparing pixels: a PNG when its framing is whole
///    (signature, every chunk's CRC, IEND; nothing inflated), a JPEG or WebP when one copy
///    decodes. Damaged bytes are refused even against their own copy.
/// 2. Different sizes (from the headers) follow `SizeMismatch`.
/// 3. Otherwise both are decoded (each checked against `maxPixels` first) and compared with
///    the tolerance's options; the metric and the limits decide the verdict, and a failure
///    (or a pass with pixels over the threshold) gets its `DiffKind`.
package enum Comparison {
    package enum Verdict: String, Sendable {
        case match, differ
        case sizeMismatch = "size-mismatch"
    }

    /// A comparison's outcome.
    package struct Outcome: Sendable {
        package var verdict: Verdict
        package var result: DiffResult
        package var expectedSize: (width: Int, height: Int)
        package var actualSize: (width: Int, height: Int)
        /// Expected faded, counted pixels red, anti-aliasing yellow (when asked for and
        /// decoded), and the two decoded images for a three-panel picture.
        package var panel: RGBAImage?
        package var expected: RGBAImage?
        package var actual: RGBAImage?
        /// The two files were byte-identical (rule 1: no pixels compared).
        package var sameBytes = false
        /// Why the images differ: set for a size mismatch and for pixels over the threshold.
        package var kind: DiffKind?

        /// Every pixel of the larger image, when the sizes differ and were not padded.
        package var countedTotal: Int? { verdict == .sizeMismatch ? result.differentPixels : nil }
    }

    /// When the difference panel is made: never, whenever the pixels are compared (not for
    /// identical bytes or a size mismatch), or always (identical or not, decoding both).
    package enum Panel: Sendable {
        case none, whenCompared, always
    }

    /// Two encoded images compared. `oneShot`: the process compares this one pair and exits
    /// (see `PNGCodec.decode`).
    package static func compare(expected: [UInt8], actual: [UInt8], tolerance: GoldenTolerance,
                                sizeMismatch: SizeMismatch = .fail, maxPixels: Int,
                                panel: Panel = .none, oneShot: Bool = false) throws(ComparisonError) -> Outcome {
        try refuseNodes(tolerance)
        guard let e = ImageDecoder.dimensions(expected) else { throw unreadable(.expected, expected, maxPixels) }
        guard let a = ImageDecoder.dimensions(actual) else { throw unreadable(.actual, actual, maxPixels) }
        for (size, image) in [(e, ComparedImage.expected), (a, .actual)] where !Checked.pixels(size.width, size.height, within: maxPixels) {
            throw ComparisonError(image: image, reason: "\(PNGError.tooLarge(width: size.width, height: size.height, limit: maxPixels))")
        }
        if expected == actual, panel != .always, PNGCodec.dimensions(expected) == nil ? (try? decode(expected, .expected, maxPixels)) != nil
                                                                               : PNGCodec.isWellFormed(expected) {
            var result = DiffResult(width: e.width, height: e.height, differentPixels: 0, antialiasedPixels: 0, bounds: nil, identical: true)
            // Identical images score 1 (consumers read the key whatever the pair).
            if tolerance.options.metric == .ssim { result.ssim = 1 }
            return Outcome(verdict: .match, result: result, expectedSize: e, actualSize: a, sameBytes: true)
        }
        if e != a && sizeMismatch == .fail {
            var outcome = Outcome(verdict: .sizeMismatch, result: DiffResult.sizesDiffer(expected: e, actual: a), expectedSize: e, actualSize: a,
                                  kind: .size)
            if panel == .always { (outcome.expected, outcome.actual) = (try decode(expected, .expected, maxPixels), try decode(actual, .actual, maxPixels)) }
            return outcome
        }
        let (decodedExpected, decodedActual) = try decodeBoth(expected, actual, maxPixels, oneShot: oneShot)
        return try compare(expected: decodedExpected, actual: decodedActual,
                           tolerance: tolerance, sizeMismatch: sizeMismatch, maxPixels: maxPixels, panel: panel)
    }

    /// Both images decoded at once, one core each (decoding is most of a large pair's time);
    /// the expected image's error first when both fail.
    private static func decodeBoth(_ expected: [UInt8], _ actual: [UInt8], _ maxPixels: Int, oneShot: Bool) throws(ComparisonError) -> (RGBAImage, RGBAImage) {
        let slots = Mutex<[Result<RGBAImage, ComparisonError>?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let result = Result { () throws(ComparisonError) -> RGBAImage in
                k == 0 ? try decode(expected, .expected, maxPixels, oneShot: oneShot) : try decode(actual, .actual, maxPixels, oneShot: oneShot)
            }
            slots.withLock { $0[k] = result }
        }
        let (e, a) = slots.withLock { ($0[0]!, $0[1]!) }
        return (try e.get(), try a.get())
    }

    /// Rules 2 and 3 on images already decoded (PDF pages rasterised by poppler): sizes,
    /// then the pixels, the metric and the kind.
    package static func compare(expected expectedImage: RGBAImage, actual actualImage: RGBAImage, tolerance: GoldenTolerance,
                                sizeMismatch: SizeMismatch = .fail, maxPixels: Int, panel: Panel = .none) throws(ComparisonError) -> Outcome {
        try refuseNodes(tolerance)
        let e = (width: expectedImage.width, height: expectedImage.height), a = (width: actualImage.width, height: actualImage.height)
        if e != a && sizeMismatch == .fail {
            return Outcome(verdict: .sizeMismatch, result: DiffResult.sizesDiffer(expected: e, actual: a), expectedSize: e, actualSize: a,
                           expected: expectedImage, actual: actualImage, kind: .size)
        }
        var picture = RGBAImage(width: 0, height: 0, pixels: [])
        var result: DiffResult
        var changes = ChangedPixels()
        do {
            // A panel of two equal images shows nothing: made only when asked for always.
            let drawPanel = panel == .always || (panel == .whenCompared && (e != a || expectedImage.pixels != actualImage.pixels))
            result = drawPanel
                ? try ImageDiff.compare(expectedImage, actualImage, options: tolerance.options, maxPixels: maxPixels, diffPanel: &picture, changes: &changes)
                : try ImageDiff.compare(expectedImage, actualImage, options: tolerance.options, maxPixels: maxPixels, changes: &changes)
        } catch {
            throw ComparisonError(image: nil, reason: "\(error)")
        }
        if tolerance.options.metric == .ssim {
            result.ssim = e == a ? (result.identical ? 1 : SSIM.score(expectedImage, actualImage)) : 0
        }
        let verdict: Verdict = tolerance.passes(result) ? .match : .differ
        var kind: DiffKind?
        if e != a {
            kind = .size
        } else if result.differentPixels > 0 || result.antialiasedPixels > 0 {
            kind = DiffClassifier.classify(expectedImage, actualImage, result: result, options: tolerance.options, changes: changes)
        }
        return Outcome(verdict: verdict, result: result, expectedSize: e, actualSize: a, panel: panel != .none && !picture.pixels.isEmpty ? picture : nil,
                       expected: expectedImage, actual: actualImage, kind: kind)
    }

    /// Card nodes are placed by a golden suite of cards, which knows their layouts; anywhere
    /// else they would be dropped, so they are refused.
    private static func refuseNodes(_ tolerance: GoldenTolerance) throws(ComparisonError) {
        guard let node = tolerance.ignoreNodes.first else { return }
        throw ComparisonError(image: nil, reason: "ignore '\(node)' names a node of a card: only batch --expect-dir, which renders the cards, can place it; give x,y,w,h here")
    }

    private static func decode(_ bytes: [UInt8], _ image: ComparedImage, _ maxPixels: Int, oneShot: Bool = false) throws(ComparisonError) -> RGBAImage {
        do {
            if PNGCodec.dimensions(bytes) != nil { return try PNGCodec.decode(bytes, maxPixels: maxPixels, oneShot: oneShot) }
            return try ImageDecoder.decode(bytes, maxPixels: maxPixels)
        } catch {
            throw ComparisonError(image: image, reason: "\(error)")
        }
    }

    /// The decoder's own words for bytes without a readable header.
    private static func unreadable(_ image: ComparedImage, _ bytes: [UInt8], _ maxPixels: Int) -> ComparisonError {
        do {
            _ = try decode(bytes, image, maxPixels)
            return ComparisonError(image: image, reason: "not a valid PNG, JPEG or WebP file")
        } catch {
            return error
        }
    }
}

extension Comparison {
    /// The one wording of two sizes that differ, in every front end (`compare`, golden suites,
    /// folder reports, animations, HLRenderKit): "sizes differ: expected WxH, actual WxH".
    package static func sizesDiffer(expected: (width: Int, height: Int), actual: (width: Int, height: Int)) -> String {
        "sizes differ: expected \(expected.width)x\(expected.height), actual \(actual.width)x\(actual.height)"
    }
}
