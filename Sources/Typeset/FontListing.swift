import CFontconfig
import CFreeType
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
        var axes: [String: [FontAxis]] = [:]
        for i in faces.indices {
            let file = faces[i].file
            if axes[file] == nil { axes[file] = Self.axes(of: file) }
            faces[i].axes = axes[file]!
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

    /// A variable font's axes, read by FreeType (Fontconfig does not keep them); none for a
    /// static font or a file FreeType cannot open.
    static func axes(of file: String) -> [FontAxis] { variableFace(file, index: 0)?.axes ?? [] }

    /// A variable face's axes and named instances, read by FreeType from a private library
    /// (nothing shared); nil for a static face or a file FreeType cannot open.
    static func variableFace(_ file: String, index: Int) -> VariableFace? {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard (try? Posix.checkRegular(file, as: "font file")) != nil,
              FT_New_Face(library, file, FT_Long(index), &face) == 0, let face else { return nil }
        defer { FT_Done_Face(face) }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0 else { return nil }
        var variation: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(face, &variation) == 0, let variation else { return nil }
        defer { FT_Done_MM_Var(library, variation) }
        let count = Int(variation.pointee.num_axis)
        let axes = (0..<count).map { i in
            let axis = variation.pointee.axis[i]
            let tag = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: axis.tag >> (24 - 8 * $0)) }, as: UTF8.self)
            return FontAxis(tag: tag, minimum: Double(axis.minimum) / 65536, defaultValue: Double(axis.def) / 65536,
                            maximum: Double(axis.maximum) / 65536)
        }
        let instances = (0..<Int(variation.pointee.num_namedstyles)).map { i in
            let style = variation.pointee.namedstyle[i]
            var coordinates: [String: Double] = [:]
            for a in 0..<count { coordinates[axes[a].tag] = Double(style.coords[a]) / 65536 }
            return VariableFace.Instance(name: name(face, id: style.strid) ?? "", coordinates: coordinates)
        }
        return VariableFace(axes: axes, instances: instances)
    }

    /// A name-table string: Windows (UTF-16BE) records first, then Macintosh Roman (read as
    /// Latin-1, which agrees on the ASCII that style names use).
    private static func name(_ face: FT_Face, id: FT_UInt) -> String? {
        var found: String?
        for i in 0..<FT_Get_Sfnt_Name_Count(face) {
            var record = FT_SfntName()
            guard FT_Get_Sfnt_Name(face, i, &record) == 0, record.name_id == id, let bytes = record.string else { continue }
            let data: [UInt8] = Array(UnsafeBufferPointer(start: bytes, count: Int(record.string_len)))
            if record.platform_id == 3 || record.platform_id == 0 {
                var units: [UInt16] = []
                for i in stride(from: 0, to: data.count - 1, by: 2) { units.append(UInt16(data[i]) << 8 | UInt16(data[i + 1])) }
                return String(decoding: units, as: UTF16.self)
            }
            if found == nil { found = String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) })) }
        }
        return found
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
