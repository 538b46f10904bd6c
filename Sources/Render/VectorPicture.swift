import CCairo
import Support

/// An SVG picture as vectors, for PDF and SVG outputs: librsvg draws it once onto the shared
/// Cairo's script surface (`hl_svg_script`), and that script, a small stack language of paths,
/// paints and transforms, is replayed here onto hlrender's own Cairo. Only the operators of
/// shapes, strokes, gradients, clips and group opacity are known; a script that needs anything
/// else (an embedded image, a font) is refused when the picture is made, and the card then
/// draws the picture as an image.
package struct VectorPicture: Sendable {
    /// The script's operators, parsed once.
    let tokens: [Token]
    /// The script's canvas in its own pixels (the raster size it was drawn for).
    package let width: Double
    package let height: Double

    enum Token: Sendable, Equatable {
        case number(Double)
        /// `/name`: a literal name.
        case literal(String)
        /// `//NAME`: a constant.
        case constant(String)
        case word(String)
        case openArray, closeArray, openDict, closeDict
    }

    /// The operators replayed; anything else makes the script unsupported.
    static let operators: Set<String> = [
        "surface", "context", "n", "m", "l", "c", "h", "rectangle", "fill", "fill+", "stroke", "stroke+", "clip", "clip+",
        "reset-clip", "paint", "mask", "g", "rgb", "rgba", "a", "linear", "radial", "add-color-stop", "set-extend", "set-filter",
        "set-matrix", "identity", "scale", "translate", "set-source", "set-line-width", "set-line-cap", "set-line-join",
        "set-miter-limit", "set-fill-rule", "set-dash", "set-tolerance", "set-antialias", "save", "restore", "pop", "dup", "exch",
        "def", "undef", "similar", "pattern",
    ]

    /// Parses `script`; nil when it uses something the replay does not know.
    package init?(script: String, width: Double, height: Double) {
        var tokens: [Token] = []
        var names = Set<String>()
        var i = script.startIndex
        while i < script.endIndex {
            let c = script[i]
            if c.isWhitespace { i = script.index(after: i); continue }
            if c == "%" {  // a comment to the end of the line
                i = script[i...].firstIndex(of: "\n") ?? script.endIndex
                continue
            }
            // Strings and encoded data are images or fonts: not replayed.
            if c == "(" || c == "{" || script[i...].hasPrefix("<~") { return nil }
            if script[i...].hasPrefix("<<") { tokens.append(.openDict); i = script.index(i, offsetBy: 2); continue }
            if script[i...].hasPrefix(">>") { tokens.append(.closeDict); i = script.index(i, offsetBy: 2); continue }
            if c == "[" { tokens.append(.openArray); i = script.index(after: i); continue }
            if c == "]" { tokens.append(.closeArray); i = script.index(after: i); continue }
            let end = script[i...].firstIndex { $0.isWhitespace || "[]<>(){}%".contains($0) } ?? script.endIndex
            // A lone delimiter (`>` not in `>>`) is no token; a bare `/` names nothing. Either
            // would otherwise read as the empty word forever.
            guard end > i, script[i..<end] != "/" else { return nil }
            let text = String(script[i..<end])
            i = end
            if let value = Double(text) {
                tokens.append(.number(value))
            } else if text.hasPrefix("//") {
                tokens.append(.constant(String(text.dropFirst(2))))
            } else if text.hasPrefix("/") {
                names.insert(String(text.dropFirst()))
                tokens.append(.literal(String(text.dropFirst())))
            } else if Self.operators.contains(text) || names.contains(text) {
                tokens.append(.word(text))
            } else {
                return nil
            }
        }
        guard !tokens.isEmpty, width > 0, height > 0 else { return nil }
        (self.tokens, self.width, self.height) = (tokens, width, height)
    }

    /// The picture if a replay onto a recording surface goes through (the stack holds together
    /// and Cairo reports no error), else nil: the caller draws it as an image.
    package func checked() -> VectorPicture? {
        guard let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil) else { return nil }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        guard (try? draw(cr, x: 0, y: 0, width: width, height: height)) != nil,
              cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return nil }
        return self
    }

    /// Replays the picture onto `cr`, its canvas scaled into `width` x `height` user units at
    /// (`x`, `y`). Throws on a script that does not hold together (a stack it empties).
    package func draw(_ cr: OpaquePointer, x: Double, y: Double, width boxWidth: Double, height boxHeight: Double) throws {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, x, y)
        cairo_scale(cr, boxWidth / width, boxHeight / height)
        var machine = Replay(base: cr)
        defer { machine.release() }
        try machine.run(tokens)
    }
}

/// The stack machine of one replay. Contexts, patterns and group surfaces it makes are its own
/// and released at the end.
private struct Replay {
    enum Value {
        case number(Double), name(String), constant(String), array([Double]), dict
        case context(OpaquePointer), surface(OpaquePointer), pattern(OpaquePointer), mark, dictMark
    }

    struct Broken: Error {}

    var stack: [Value] = []
    var names: [String: Value] = [:]
    /// The script's device space: the picture's box on the caller's context.
    var base = cairo_matrix_t()
    let root: OpaquePointer
    var made: [OpaquePointer] = []  // contexts made here
    var surfaces: [OpaquePointer] = []
    var patterns: [OpaquePointer] = []

    init(base cr: OpaquePointer) {
        root = cr
        cairo_get_matrix(cr, &base)
    }

    mutating func release() {
        made.forEach { cairo_destroy($0) }
        patterns.forEach { cairo_pattern_destroy($0) }
        surfaces.forEach { cairo_surface_destroy($0) }
    }

    mutating func pop() throws -> Value {
        guard let value = stack.popLast() else { throw Broken() }
        return value
    }

    mutating func number() throws -> Double {
        guard case let .number(v) = try pop() else { throw Broken() }
        return v
    }

    mutating func numbers(_ n: Int) throws -> [Double] {
        var out = [Double](repeating: 0, count: n)
        for k in stride(from: n - 1, through: 0, by: -1) { out[k] = try number() }
        return out
    }

    /// The context an operator works on: the nearest on the stack.
    func context() throws -> OpaquePointer {
        for value in stack.reversed() { if case let .context(cr) = value { return cr } }
        throw Broken()
    }

    /// A matrix of the script's device space, on the replay's context (the root's picture box).
    func device(_ cr: OpaquePointer) -> cairo_matrix_t {
        cr == root ? base : { var m = cairo_matrix_t(); cairo_matrix_init_identity(&m); return m }()
    }

    mutating func keep(_ pattern: OpaquePointer) -> Value {
        patterns.append(pattern)
        return .pattern(pattern)
    }

    mutating func run(_ tokens: [VectorPicture.Token]) throws {
        for token in tokens {
            switch token {
            case let .number(v): stack.append(.number(v))
            case let .literal(name): stack.append(.name(name))
            case let .constant(name): stack.append(.constant(name))
            case .openArray: stack.append(.mark)
            case .closeArray:
                var values: [Double] = []
                while true {
                    let value = try pop()
                    if case .mark = value { break }
                    guard case let .number(v) = value else { throw Broken() }
                    values.insert(v, at: 0)
                }
                stack.append(.array(values))
            case .openDict: stack.append(.dictMark)
            case .closeDict:
                while true { if case .dictMark = try pop() { break } }
                stack.append(.dict)
            case let .word(word): try apply(word)
            }
        }
    }

    mutating func apply(_ word: String) throws {
        if let value = names[word], !VectorPicture.operators.contains(word) {
            stack.append(value)
            return
        }
        switch word {
        case "surface":
            guard case .dict = try pop() else { throw Broken() }
            stack.append(.context(root))  // `context` below takes it as is
        case "context":
            switch try pop() {
            case let .context(cr): stack.append(.context(cr))
            case let .surface(surface):
                let cr = cairo_create(surface)!
                made.append(cr)
                stack.append(.context(cr))
            default: throw Broken()
            }
        case "n": cairo_new_path(try context())
        case "m", "l":
            let p = try numbers(2)
            let cr = try context()
            if word == "m" { cairo_move_to(cr, p[0], p[1]) } else { cairo_line_to(cr, p[0], p[1]) }
        case "c":
            let p = try numbers(6)
            cairo_curve_to(try context(), p[0], p[1], p[2], p[3], p[4], p[5])
        case "h": cairo_close_path(try context())
        case "rectangle":
            let p = try numbers(4)
            cairo_rectangle(try context(), p[0], p[1], p[2], p[3])
        case "fill": cairo_fill(try context())
        case "fill+": cairo_fill_preserve(try context())
        case "stroke": cairo_stroke(try context())
        case "stroke+": cairo_stroke_preserve(try context())
        case "clip": cairo_clip(try context())
        case "clip+": cairo_clip_preserve(try context())
        case "reset-clip": cairo_reset_clip(try context())
        case "paint": cairo_paint(try context())
        case "mask":
            let alpha: Double?
            var pattern: OpaquePointer
            switch try pop() {
            case let .pattern(p): pattern = p; alpha = nil
            default: throw Broken()
            }
            _ = alpha
            cairo_mask(try context(), pattern)
        case "g":
            let v = try number()
            stack.append(keep(cairo_pattern_create_rgb(v, v, v)))
        case "rgb":
            let p = try numbers(3)
            stack.append(keep(cairo_pattern_create_rgb(p[0], p[1], p[2])))
        case "rgba":
            let p = try numbers(4)
            stack.append(keep(cairo_pattern_create_rgba(p[0], p[1], p[2], p[3])))
        case "a":
            stack.append(keep(cairo_pattern_create_rgba(0, 0, 0, try number())))
        case "linear":
            let p = try numbers(4)
            stack.append(keep(cairo_pattern_create_linear(p[0], p[1], p[2], p[3])))
        case "radial":
            let p = try numbers(6)
            stack.append(keep(cairo_pattern_create_radial(p[0], p[1], p[2], p[3], p[4], p[5])))
        case "add-color-stop":
            let p = try numbers(5)
            guard case let .pattern(pattern) = stack.last else { throw Broken() }
            cairo_pattern_add_color_stop_rgba(pattern, p[0], p[1], p[2], p[3], p[4])
        case "set-extend":
            guard case let .constant(name) = try pop(), case let .pattern(pattern) = stack.last else { throw Broken() }
            let extend = ["EXTEND_NONE": CAIRO_EXTEND_NONE, "EXTEND_REPEAT": CAIRO_EXTEND_REPEAT, "EXTEND_REFLECT": CAIRO_EXTEND_REFLECT,
                          "EXTEND_PAD": CAIRO_EXTEND_PAD][name]
            guard let extend else { throw Broken() }
            cairo_pattern_set_extend(pattern, extend)
        case "set-filter", "set-tolerance", "set-antialias":
            _ = try pop()
        case "identity":
            stack.append(.array([1, 0, 0, 1, 0, 0]))
        case "set-matrix":
            guard case let .array(m) = try pop(), m.count == 6 else { throw Broken() }
            var matrix = cairo_matrix_t(xx: m[0], yx: m[1], xy: m[2], yy: m[3], x0: m[4], y0: m[5])
            switch stack.last {
            case let .pattern(pattern)?: cairo_pattern_set_matrix(pattern, &matrix)
            case let .context(cr)?:
                var device = device(cr), combined = cairo_matrix_t()
                cairo_matrix_multiply(&combined, &matrix, &device)
                cairo_set_matrix(cr, &combined)
            default: throw Broken()
            }
        case "scale", "translate":
            let p = try numbers(2)
            let cr = try context()
            if word == "scale" { cairo_scale(cr, p[0], p[1]) } else { cairo_translate(cr, p[0], p[1]) }
        case "set-source":
            guard case let .pattern(pattern) = try pop() else { throw Broken() }
            cairo_set_source(try context(), pattern)
        case "set-line-width": cairo_set_line_width(try context(), try number())
        case "set-miter-limit": cairo_set_miter_limit(try context(), try number())
        case "set-line-cap":
            guard case let .constant(name) = try pop() else { throw Broken() }
            let cap = ["LINE_CAP_BUTT": CAIRO_LINE_CAP_BUTT, "LINE_CAP_ROUND": CAIRO_LINE_CAP_ROUND, "LINE_CAP_SQUARE": CAIRO_LINE_CAP_SQUARE][name]
            guard let cap else { throw Broken() }
            cairo_set_line_cap(try context(), cap)
        case "set-line-join":
            guard case let .constant(name) = try pop() else { throw Broken() }
            let join = ["LINE_JOIN_MITER": CAIRO_LINE_JOIN_MITER, "LINE_JOIN_ROUND": CAIRO_LINE_JOIN_ROUND,
                        "LINE_JOIN_BEVEL": CAIRO_LINE_JOIN_BEVEL][name]
            guard let join else { throw Broken() }
            cairo_set_line_join(try context(), join)
        case "set-fill-rule":
            guard case let .constant(name) = try pop() else { throw Broken() }
            guard let rule = ["WINDING": CAIRO_FILL_RULE_WINDING, "EVEN_ODD": CAIRO_FILL_RULE_EVEN_ODD][name] else { throw Broken() }
            cairo_set_fill_rule(try context(), rule)
        case "set-dash":
            let offset = try number()
            guard case let .array(dashes) = try pop() else { throw Broken() }
            cairo_set_dash(try context(), dashes, Int32(dashes.count), offset)
        case "save": cairo_save(try context())
        case "restore": cairo_restore(try context())
        case "pop": _ = try pop()
        case "dup":
            guard let top = stack.last else { throw Broken() }
            stack.append(top)
        case "exch":
            let b = try pop(), a = try pop()
            stack.append(b)
            stack.append(a)
        case "def":
            let value = try pop()
            guard case let .name(name) = try pop() else { throw Broken() }
            names[name] = value
        case "undef":
            guard case let .name(name) = try pop() else { throw Broken() }
            names[name] = nil
        case "similar":
            guard case let .constant(content) = try pop() else { throw Broken() }
            let size = try numbers(2)
            let cr = try context()
            _ = try pop()  // the context `dup` copied
            let kind = content == "COLOR" ? CAIRO_CONTENT_COLOR : content == "ALPHA" ? CAIRO_CONTENT_ALPHA : CAIRO_CONTENT_COLOR_ALPHA
            // A group the size of the script's canvas, in the picture's device space: on a PDF
            // or SVG target Cairo keeps it as vectors.
            guard let w = try? Checked.side(size[0], "width", limit: 16384), let h = try? Checked.side(size[1], "height", limit: 16384) else { throw Broken() }
            let group = cairo_surface_create_similar(cairo_get_target(cr), kind, Int32(w), Int32(h))!
            surfaces.append(group)
            stack.append(.surface(group))
        case "pattern":
            guard case let .surface(surface) = try pop() else { throw Broken() }
            stack.append(keep(cairo_pattern_create_for_surface(surface)))
        default:
            throw Broken()
        }
    }
}
