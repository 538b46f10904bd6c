import CFontconfig
import Support

/// Choosing a face's style for a request, by Fontconfig's scales and rules: the distance that
/// ranks a family's faces, the axis values of a variable face, and Fontconfig's synthetic
/// bold (`90-synthetic.conf`: a face no heavier than medium asked for bold or heavier).
extension FontCandidate {
    /// The face's weight range in Fontconfig's scale: a variable face's `wght` axis, else its weight.
    var weightRange: ClosedRange<Double> {
        guard let axis = variable?.axis("wght") else { return weight...weight }
        return FcWeightFromOpenTypeDouble(axis.minimum)...FcWeightFromOpenTypeDouble(axis.maximum)
    }

    var widthRange: ClosedRange<Double> {
        guard let axis = variable?.axis("wdth") else { return width...width }
        return axis.minimum...axis.maximum
    }

    /// Slanted where the request is upright or the other way round (an `ital` axis can be either).
    private func slantDiffers(from spec: FontSpec) -> Bool {
        variable?.axis("ital") == nil && (slant != 0) != (spec.slant != 0)
    }

    /// How far the face is from the request, in Fontconfig's order of priority: slant, then
    /// weight, then width (each distance 0 inside a variable face's range).
    func distance(to spec: FontSpec) -> (Int, Double, Double) {
        (slantDiffers(from: spec) ? 1 : 0, Self.distance(Double(spec.weight), weightRange),
         Self.distance(Double(spec.width), widthRange))
    }

    private static func distance(_ value: Double, _ range: ClosedRange<Double>) -> Double {
        value < range.lowerBound ? range.lowerBound - value : max(0, value - range.upperBound)
    }

    /// The face is the request as asked: no other copy of the family can do better.
    func isExact(for spec: FontSpec) -> Bool { distance(to: spec) == (0, 0, 0) }

    /// The face with its axis values set from the request (weight to `wght`, width to `wdth`,
    /// italic to `ital`, each within the axis's range; defaults left out) and Fontconfig's
    /// synthetic bold where the request is bold or heavier and the face is no heavier than
    /// medium. Colour fonts are never emboldened (their glyphs are pictures).
    func styled(for spec: FontSpec) -> FontCandidate {
        var out = self
        var weight = self.weight
        if let variable {
            var values: [String: Double] = [:]
            if let axis = variable.axis("wght") {
                values["wght"] = FcWeightToOpenTypeDouble(Double(spec.weight)).clamped(to: axis.minimum...axis.maximum)
                weight = FcWeightFromOpenTypeDouble(values["wght"]!)
            }
            if let axis = variable.axis("wdth") { values["wdth"] = Double(spec.width).clamped(to: axis.minimum...axis.maximum) }
            if spec.slant != 0, let axis = variable.axis("ital") { values["ital"] = axis.maximum }
            out.face.variations = variable.axes.compactMap { axis in
                values[axis.tag].flatMap { $0 == axis.defaultValue ? nil : "\(axis.tag)=\(Self.format($0))" }
            }.joined(separator: ",")
            if let instance = variable.instance(at: values), !instance.name.isEmpty {
                out.face.instance = instance.name
                out.face.style = instance.name
            } else if let base = variable.instance(at: [:]), !base.name.isEmpty {
                // Between instances: the default instance's name, the axis values beside it.
                out.face.style = base.name
            }
        }
        out.face.emboldened = !face.isColor && weight <= Double(FC_WEIGHT_MEDIUM) && spec.weight >= Int(FC_WEIGHT_BOLD)
        return out
    }

    /// An axis value as HarfBuzz and Cairo read it: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}

/// One-line notes a font library has for its caller (a substitution, a synthetic style), each
/// given once: the library writes nowhere itself, the CLI puts them on stderr.
package final class Notices: @unchecked Sendable {
    private let lock = Lock()
    private var seen: Set<String> = []
    private var observer: (@Sendable (String) -> Void)?

    /// Calls `observer` with each note the first time it is posted (also those posted before).
    /// It runs on the posting thread, possibly under the library's locks: it must return at
    /// once and not call the library.
    package func observe(_ observer: @escaping @Sendable (String) -> Void) {
        let earlier = lock.withLock { () -> [String] in
            self.observer = observer
            return seen.sorted()
        }
        earlier.forEach(observer)
    }

    /// Posts `message` (a repeat is dropped). At most 1,000 distinct notes are kept.
    func post(_ message: String) {
        let observer = lock.withLock { () -> (@Sendable (String) -> Void)? in
            guard seen.count < 1000, seen.insert(message).inserted else { return nil }
            return self.observer
        }
        observer?(message)
    }

    /// The notes posted so far, in order of their text.
    package var all: [String] { lock.withLock { seen.sorted() } }
}

extension FontLibrary {
    /// The face `spec` picks (as the first cluster of a text would be drawn with, before
    /// fallback), with its axis values and synthetic bold; throws as a layout would.
    package func match(_ spec: FontSpec) throws -> FontFace { try chain(for: spec).primary.face }

    /// Whether `family` is installed (in the library's folders, or the system's when used).
    package func isInstalled(_ family: String) -> Bool {
        withConfigurations { configs in
            configs.contains { config in
                guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return false }
                defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
                FcPatternAddString(pattern, FC_FAMILY, family)
                FcObjectSetAdd(objects, FC_FILE)
                guard let set = FcFontList(config, pattern, objects) else { return false }
                defer { FcFontSetDestroy(set) }
                return set.pointee.nfont > 0
            }
        }
    }

    /// Posts a note for each face `layout` draws with a synthetic style: emboldened, or slanted
    /// because italic was asked of a face without it (`italicAsked`: some style of the text asks
    /// for italic; without it and without an emboldened face nothing is looked at).
    func noteSyntheticStyles(in layout: Layout, italicAsked: Bool) {
        for face in layout.fonts where face.emboldened {
            notices.post("'\(face.family)' has no face as bold as asked: drawn with synthetic bold")
        }
        guard italicAsked else { return }
        var slanted = Set<Int>()
        for line in layout.lines {
            for run in line.runs where run.metrics.oblique { slanted.insert(run.font) }
        }
        for font in slanted.sorted() {
            notices.post("'\(layout.fonts[font].family)' has no italic face: drawn with synthetic oblique")
        }
    }
}
