import CHarfBuzz
import Support

/// OpenType features in HarfBuzz's syntax ("liga=0,ss01,tnum"), parsed once.
package struct FontFeatures: Hashable, Sendable {
    let features: [hb_feature_t]
    package let text: String

    package static func == (a: FontFeatures, b: FontFeatures) -> Bool { a.text == b.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Parses a comma-separated list; the error names the first item HarfBuzz does not read.
    package init(_ text: String) throws {
        var parsed: [hb_feature_t] = []
        for item in text.split(separator: ",").map({ String($0).trimmed }) where !item.isEmpty {
            var feature = hb_feature_t()
            guard hb_feature_from_string(item, Int32(item.utf8.count), &feature) != 0 else {
                throw TypesetError.invalidFeature(item)
            }
            parsed.append(feature)
        }
        features = parsed
        self.text = text
    }

    package static let none = try! FontFeatures("")

    /// These features after `defaults` (later ones win in HarfBuzz).
    func after(_ defaults: String) -> [hb_feature_t] {
        ((try? FontFeatures(defaults))?.features ?? []) + features
    }
}

/// Variable-font axis values in HarfBuzz's syntax ("wght=650,wdth=80"), parsed once. They reach
/// shaping (advances) and, through `Layout.variations`, the drawn and embedded outlines.
package struct FontVariations: Hashable, Sendable {
    package let text: String
    let values: [hb_variation_t]

    package static func == (a: FontVariations, b: FontVariations) -> Bool { a.text == b.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    package init(_ text: String) throws {
        var parsed: [hb_variation_t] = []
        var items: [String] = []
        for item in text.split(separator: ",").map({ String($0).trimmed }) where !item.isEmpty {
            var variation = hb_variation_t()
            guard hb_variation_from_string(item, Int32(item.utf8.count), &variation) != 0, variation.value.isFinite else {
                throw TypesetError.invalidVariation(item)
            }
            parsed.append(variation)
            items.append(item)
        }
        values = parsed
        self.text = items.joined(separator: ",")
    }

    package static let none = try! FontVariations("")

    /// A face's own axis values with `over` set after them (the later value of an axis wins,
    /// in HarfBuzz and in Cairo alike).
    static func merged(_ face: String, _ over: FontVariations) throws -> FontVariations {
        face.isEmpty ? over : try FontVariations(joined(face, over.text))
    }

    /// The same in text, as Cairo's font options take them.
    package static func joined(_ face: String, _ over: String) -> String {
        face.isEmpty ? over : over.isEmpty ? face : face + "," + over
    }
    package var isEmpty: Bool { values.isEmpty }
}

/// Whether the character at byte `offset` is a word space (U+0020 or U+00A0): what word
/// spacing widens and justification stretches.
func isWordSpace<Bytes: RandomAccessCollection<UInt8>>(_ utf8: Bytes, at offset: Int) -> Bool where Bytes.Index == Int {
    guard offset >= utf8.startIndex, offset < utf8.endIndex else { return false }
    if utf8[offset] == 0x20 { return true }
    return utf8[offset] == 0xC2 && offset + 1 < utf8.endIndex && utf8[offset + 1] == 0xA0
}

/// Tracking and word spacing added to shaped advances. Letter spacing goes after every
/// grapheme cluster but not inside cursive scripts (it would break the joins); word spacing
/// after every space.
enum Spacing {
    /// Scripts whose letters join: tracking would tear them apart.
    static let cursive: Set<UInt32> = Set(["Arab", "Syrc", "Mong", "Nkoo", "Mand", "Adlm", "Rohg", "Sogd", "Phag"].map(openTypeTag))

    static func apply(_ glyphs: inout [ShapedGlyph], utf8: UnsafeBufferPointer<UInt8>, script: UInt32, letter: Double,
                      word: Double) {
        guard letter != 0 || word != 0, !glyphs.isEmpty else { return }
        let track = cursive.contains(script) ? 0 : letter
        for i in glyphs.indices {
            // The visually last glyph of its cluster gets the space after the cluster.
            let last = i == glyphs.count - 1 || glyphs[i + 1].cluster != glyphs[i].cluster
            guard last else { continue }
            glyphs[i].advance += track + (isWordSpace(utf8, at: glyphs[i].cluster) ? word : 0)
        }
    }
}
