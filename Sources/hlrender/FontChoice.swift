import Support
import Typeset

/// What `fonts --match` prints: the face a request picks, where it comes from and why.
struct FontChoice {
    var spec: FontSpec
    var face: FontFace
    /// font-dir, pinned or system.
    var source: String
    /// The requested family is installed (else the face is Fontconfig's substitute).
    var installed: Bool

    var synthetic: [String] { face.synthetic(oblique: face.slantsSynthetically(italicAsked: spec.slant != 0)) }

    /// Why this face, in one sentence per step.
    var reasons: [String] {
        var out: [String] = []
        let family = spec.family ?? ""
        if spec.file != nil {
            out.append("a font file")
        } else if FontSpec.genericFamilies.contains(family.lowercased()) {
            out.append("'\(family)' is a generic name: Fontconfig's rules pick '\(face.family)'")
        } else if installed {
            out.append("'\(family)' is installed (\(source))")
        } else {
            out.append("'\(family)' is not installed: '\(face.family)' is Fontconfig's substitute (--font-strict refuses it)")
        }
        if !face.variations.isEmpty {
            out.append("a variable face: \(face.variations) from the requested style" + (face.instance.isEmpty ? "" : " (its named instance '\(face.instance)')"))
        }
        if face.emboldened { out.append("no face is as bold as asked: synthetic bold") }
        if face.slantsSynthetically(italicAsked: spec.slant != 0) { out.append("no italic face: synthetic oblique") }
        return out
    }

    var text: String {
        let rows: [(String, String)] = [
            ("face", "\(face.family) \(face.style)"), ("file", face.file), ("index", String(face.index)), ("source", source),
            ("instance", face.instance.isEmpty ? "none" : face.instance), ("variations", face.variations.isEmpty ? "none" : face.variations),
            ("synthetic", synthetic.isEmpty ? "none" : synthetic.joined(separator: ", ")), ("why", reasons.joined(separator: "; ")),
        ]
        return rows.map { $0.0.padding(10) + $0.1 + "\n" }.joined()
    }

    var json: JSONValue {
        .object([("family", .string(face.family)), ("style", .string(face.style)), ("file", .string(face.file)),
                 ("index", .number(Double(face.index))), ("source", .string(source)), ("instance", .string(face.instance)),
                 ("variations", .string(face.variations)), ("synthetic", .array(synthetic.map(JSONValue.string))),
                 ("substituted", .bool(!installed && spec.file == nil && !FontSpec.genericFamilies.contains((spec.family ?? "").lowercased()))),
                 ("why", .array(reasons.map(JSONValue.string)))])
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}
