import CHarfBuzz
import CFontconfig
import Support

/// One face a font library can use, as `hlrender fonts` lists it.
package struct FontListing: Sendable, Equatable {
    /// The family name (the first, where a face gives several).
    package var family: String
    /// The style name ("Regular", "Bold Italic", a named instance of a variable font).
    package var style: String
    /// OpenType weight, 1 to 1000.
    package var weight: Int
    package var italic: Bool
    package var file: String
    /// The face's index in its file (a collection holds several).
    package var index: Int
    /// A variable font's axes.
    package var axes: [FontAxis]
}

/// One variation axis of a variable font.
package struct FontAxis: Sendable, Equatable {
    /// The four-letter tag ("wght", "opsz").
    package var tag: String
    package var minimum: Double
    package var defaultValue: Double
    package var maximum: Double
}

extension FontLibrary {
    /// Every face the library can use: its folders' fonts, then the system's where the library
    /// uses them, sorted by family, weight and style. A variable font's named instances are
    /// listed as its styles.
    package func listing() -> [FontListing] {
        var faces: [FontListing] = []
        var seen = Set<String>()
        withConfigurations { configs in
            for config in configs {
                guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { continue }
                defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
                for object in [FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_VARIABLE] { FcObjectSetAdd(objects, object) }
                guard let set = FcFontList(config, pattern, objects) else { continue }
                defer { FcFontSetDestroy(set) }
                for i in 0..<Int(set.pointee.nfont) {
                    guard let font = set.pointee.fonts[i], let face = Self.listing(font) else { continue }
                    // The variable font's own pattern (its default instance) is not a style:
                    // its named instances are.
                    var variable: FcBool = 0
                    if FcPatternGetBool(font, FC_VARIABLE, 0, &variable) == FcResultMatch, variable != 0 { continue }
                    if seen.insert("\(face.file)#\(face.index)#\(face.style)").inserted { faces.append(face) }
                }
            }
        }
        for i in faces.indices {
            faces[i].axes = variableFace(FontFace(file: faces[i].file, index: faces[i].index, family: "", style: "", isColor: false))?.axes ?? []
        }
        return faces.sorted {
            ($0.family.lowercased(), $0.weight, $0.italic ? 1 : 0, $0.style) < ($1.family.lowercased(), $1.weight, $1.italic ? 1 : 0, $1.style)
        }
    }

    private static func listing(_ font: OpaquePointer) -> FontListing? {
        var family: UnsafeMutablePointer<FcChar8>?, style: UnsafeMutablePointer<FcChar8>?, file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, FC_FAMILY, 0, &family) == FcResultMatch, let family,
              FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetString(font, FC_STYLE, 0, &style)
        var index: Int32 = 0, slant: Int32 = 0
        var weight: Double = Double(FC_WEIGHT_REGULAR)
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        _ = FcPatternGetInteger(font, FC_SLANT, 0, &slant)
        _ = FcPatternGetDouble(font, FC_WEIGHT, 0, &weight)
        return FontListing(family: String(cString: family), style: style.map { String(cString: $0) } ?? "",
                           weight: Checked.clamped(FcWeightToOpenTypeDouble(weight), .toNearestOrAwayFromZero, in: 1...1000), italic: slant != FC_SLANT_ROMAN,
                           file: String(cString: file), index: Int(index & 0xFFFF), axes: [])
    }

}

extension HarfBuzzFace {
    /// The face's axes and named instances, read from its `fvar` and `name` tables once (nil:
    /// a static face).
    var variableFace: VariableFace? {
        lock.withLock {
            if let known = variable { return known }
            let read = HarfBuzzFace.readVariableFace(face)
            variable = .some(read)
            return read
        }
    }

    private static func readVariableFace(_ face: OpaquePointer) -> VariableFace? {
        guard hb_ot_var_has_data(face) != 0 else { return nil }
        var count = hb_ot_var_get_axis_count(face)
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        hb_ot_var_get_axis_infos(face, 0, &count, &infos)
        let axes = infos.prefix(Int(count)).map { info in
            FontAxis(tag: String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: info.tag >> (24 - 8 * $0)) }, as: UTF8.self),
                     minimum: Double(info.min_value), defaultValue: Double(info.default_value), maximum: Double(info.max_value))
        }
        let english = hb_language_from_string("en", -1)
        let instances = (0..<hb_ot_var_get_named_instance_count(face)).map { i in
            var n = UInt32(axes.count)
            var coords = [Float](repeating: 0, count: axes.count)
            hb_ot_var_named_instance_get_design_coords(face, i, &n, &coords)
            var coordinates: [String: Double] = [:]
            for a in 0..<min(Int(n), axes.count) { coordinates[axes[a].tag] = Double(coords[a]) }
            let id = hb_ot_var_named_instance_get_subfamily_name_id(face, i)
            var size: UInt32 = 128
            var text = [CChar](repeating: 0, count: Int(size))
            hb_ot_name_get_utf8(face, id, english, &size, &text)
            return VariableFace.Instance(name: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                         coordinates: coordinates)
        }
        return VariableFace(axes: axes, instances: instances)
    }
}

/// A variable face's design space: its axes and named instances.
package struct VariableFace: Sendable, Equatable {
    /// One named instance ("Bold") and its axis values.
    package struct Instance: Sendable, Equatable {
        package var name: String
        package var coordinates: [String: Double]
    }
    package var axes: [FontAxis]
    package var instances: [Instance]

    package func axis(_ tag: String) -> FontAxis? { axes.first { $0.tag == tag } }

    /// The named instance at exactly these values (axes not given at their defaults).
    package func instance(at values: [String: Double]) -> Instance? {
        instances.first { instance in
            axes.allSatisfy { axis in (instance.coordinates[axis.tag] ?? axis.defaultValue) == (values[axis.tag] ?? axis.defaultValue) }
        }
    }
}
