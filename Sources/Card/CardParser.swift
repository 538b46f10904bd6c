import Render
import Steps
import Typeset
import Support

extension CardSpec {
    /// Parses a spec (already free of variables, see `Variables`). `folder` is where relative
    /// paths resolve; `linkSchemes` what its links may use.
    package static func parse(_ json: JSONValue, folder: String, linkSchemes: LinkSchemes) throws -> CardSpec {
        guard case let .object(members) = json else { throw CardError("", "a card spec must be a JSON object, not \(json.typeName)") }
        var spec = CardSpec()
        spec.folder = folder
        var defaults: [(String, JSONValue)] = []
        for (key, value) in members {
            switch key {
            case "blocks": break
            case _ where CardSpec.options.named(key) != nil:
                do {
                    try CardSpec.options.named(key)!.apply(.json(value), to: &spec)
                } catch let error as OptionError {
                    throw CardError(error.subpath.isEmpty ? key : join(key, error.subpath), error.reason)
                }
            default:
                guard let scope = OptionModel.scope(of: key) else { throw unknownKey(key, path: "", known: cardKeys + OptionModel.names(for: .both) + OptionModel.names(for: .steps)) }
                // A key that styles a stretch of text only: no block would take it as a default,
                // so it would vanish.
                guard scope != .span else {
                    throw CardError(key, "styles a span only: give it on an item of a text block's \"spans\" (or as a markup attribute), not on the card")
                }
                defaults.append((key, value))
            }
        }
        guard case let .array(blocks)? = json["blocks"] else {
            throw CardError("blocks", json["blocks"] == nil ? "is missing: a card needs a list of blocks" : "must be an array")
        }
        spec.blocks = try blocks.enumerated().map { try block($1, path: join("blocks", $0), defaults: defaults, linkSchemes: linkSchemes) }
        return spec
    }

    static func block(_ json: JSONValue, path: String, defaults: [(String, JSONValue)], linkSchemes: LinkSchemes) throws -> BlockSpec {
        guard case let .object(members) = json else { throw CardError(path, "a block must be an object, not \(json.typeName)") }
        guard let typeValue = json["type"] else { throw CardError(join(path, "type"), "is missing (text, steps, image or stack)") }
        let type = try string(typeValue, join(path, "type"))
        var spec = BlockSpec(kind: .stack(gap: 0, align: .center, blocks: []), path: path)
        try applyRows(members.filter { placementKeys.contains($0.key) && $0.key != "type" }, BlockSpec.placementOptions, to: &spec, path: path)
        let own = members.filter { !placementKeys.contains($0.key) }
        switch type {
        case "text", "steps":
            let scope: OptionModel.Scope = type == "text" ? .text : .steps
            var settings = BlockSettings()
            settings.linkSchemes = linkSchemes
            let known = OptionModel.names(for: scope)
            // Card-level options are defaults: apply them first (those of the other block kind
            // are skipped), then the block's own.
            for (key, value) in defaults where known.contains(key) {
                try apply(key, value, to: &settings, path: key)
            }
            var fit: FitSpec?
            for (key, value) in own {
                if key == "fit" {
                    fit = try fitSpec(value, path: join(path, key))
                    // Steps have no lines to count: their fit is a height (and a width).
                    if type == "steps", fit?.maxLines != nil { throw CardError(join(join(path, key), "max-lines"), "is for text blocks; a steps block fits width and height") }
                    continue
                }
                guard known.contains(key) else {
                    throw unknownKey(key, path: path, known: known + placementKeys + ["fit"])
                }
                try apply(key, value, to: &settings, path: join(path, key))
            }
            if type == "text" {
                guard settings.hasText else { throw CardError(join(path, "text"), "is missing: give text, text-file, markup, markup-file, markdown, markdown-file or spans") }
                spec.kind = .text(settings, fit: fit)
            } else {
                guard settings.steps != nil || settings.stepsFile != nil else { throw CardError(join(path, "steps"), "is missing: give steps or steps-file") }
                spec.kind = .steps(settings, fit: fit)
            }
        case "image":
            var image = ImageSettings()
            try applyRows(own, ImageSettings.options, to: &image, path: path, known: imageKeys + placementKeys)
            guard let src = image.src else { throw CardError(join(path, "src"), "is missing: the image file") }
            spec.kind = .image(src: src, width: image.width, height: image.height, radius: image.radius, alt: image.alt)
        case "stack":
            var stack = StackSettings()
            try applyRows(own.filter { $0.key != "blocks" }, StackSettings.options, to: &stack, path: path, known: stackKeys + placementKeys)
            guard case let .array(children)? = json["blocks"] else { throw CardError(join(path, "blocks"), "must be an array of blocks") }
            let blocks = try children.enumerated().map { try block($1, path: join(join(path, "blocks"), $0), defaults: defaults, linkSchemes: linkSchemes) }
            spec.kind = .stack(gap: stack.gap, align: stack.align, blocks: blocks)
        default:
            throw CardError(join(path, "type"), "'\(type)' is not text, steps, image or stack")
        }
        return spec
    }

    static func apply(_ key: String, _ value: JSONValue, to settings: inout BlockSettings, path: String) throws {
        do {
            try OptionModel.named(key)!.apply(.json(value), to: &settings)
        } catch let error as OptionError {
            throw CardError(path + error.subpath, error.reason)
        }
    }

    static func unknownKey(_ key: String, path: String, known: [String]) -> CardError {
        let hint = suggestion(for: key, among: known).map { "; " + didYouMean([$0]) } ?? ""
        return CardError(join(path, key), "unknown key\(hint)")
    }

    static func fitSpec(_ json: JSONValue, path: String) throws -> FitSpec {
        guard case let .object(members) = json else { throw CardError(path, "must be an object") }
        var fit = FitSpec()
        try applyRows(members, FitSpec.options, to: &fit, path: path)
        return fit
    }

    /// `members` of the object at `path` through `table`'s rows into `target`; a key no row
    /// has is refused with the closest of `known` (default: the table's names).
    static func applyRows<T>(_ members: [(String, JSONValue)], _ table: [OptionDefinition<T>], to target: inout T, path: String,
                             known: [String]? = nil) throws {
        for (key, value) in members {
            guard let option = table.named(key) else { throw unknownKey(key, path: path, known: known ?? table.map(\.name)) }
            do {
                try option.apply(.json(value), to: &target)
            } catch let error as OptionError {
                throw CardError(join(path, key) + error.subpath, error.reason)
            }
        }
    }

    static func background(_ json: JSONValue, path: String) throws -> BackgroundSpec {
        if case let .string(text) = json {
            do { return .color(try OptionInput.text(text).color()) } catch let error as OptionError { throw CardError(path, error.message) }
        }
        guard case let .object(members) = json, members.count >= 1 else {
            throw CardError(path, "must be a colour, {\"gradient\": ...} or {\"image\": ...}")
        }
        if let gradient = json["gradient"] {
            let p = join(path, "gradient")
            for (key, _) in members where key != "gradient" { throw unknownKey(key, path: path, known: ["gradient"]) }
            guard case let .object(inner) = gradient else { throw CardError(p, "must be an object with angle and stops") }
            for (key, _) in inner where !["angle", "stops"].contains(key) { throw unknownKey(key, path: p, known: ["angle", "stops"]) }
            let angle = try gradient["angle"].map { try number($0, join(p, "angle")) } ?? 180
            guard case let .array(items)? = gradient["stops"], items.count >= 2 else {
                throw CardError(join(p, "stops"), "must list two or more colours")
            }
            let stops = try items.enumerated().map { try stop($1, path: join(join(p, "stops"), $0)) }
            return .gradient(angle: angle, stops: stops)
        }
        if let image = json["image"] {
            for (key, _) in members where !["image", "fit", "blur", "dim"].contains(key) {
                throw unknownKey(key, path: path, known: ["image", "fit", "blur", "dim"])
            }
            var fit = ImageFit.cover
            if let value = json["fit"] {
                let text = try string(value, join(path, "fit"))
                guard let f = ImageFit(rawValue: text) else { throw CardError(join(path, "fit"), "'\(text)' is not cover or contain") }
                fit = f
            }
            let blurValue = try json["blur"].map { try number($0, join(path, "blur")) } ?? 0
            let dimValue = try json["dim"].map { try number($0, join(path, "dim")) } ?? 0
            let blur = try checked(join(path, "blur")) { () throws(ValueError) in try Sigma(blurValue) }
            let dim = try checked(join(path, "dim")) { () throws(ValueError) in try Fraction(dimValue, "dim") }
            return .image(path: try string(image, join(path, "image")), fit: fit, blur: blur, dim: dim)
        }
        throw unknownKey(members[0].key, path: path, known: ["gradient", "image"])
    }

    /// "#FD1D1D 50%" or {"color": ..., "position": 50}.
    static func stop(_ json: JSONValue, path: String) throws -> GradientStop {
        let text = try string(json, path)
        let parts = text.split(separator: " ").map(String.init)
        guard (1...2).contains(parts.count), let color = Color(parsing: parts[0]) else {
            throw CardError(path, "'\(text)' is not a colour with an optional position (\"#FD1D1D 50%\")")
        }
        guard parts.count == 2 else { return try GradientStop(color: color) }
        guard parts[1].hasSuffix("%"), let percent = Double(parts[1].dropLast()), percent.isFinite else {
            throw CardError(path, "'\(parts[1])' is not a position in % (\"50%\")")
        }
        return try checked(path) { () throws(ValueError) in try GradientStop(color: color, position: percent / 100) }
    }

    static func string(_ json: JSONValue, _ path: String) throws -> String {
        guard case let .string(text) = json else { throw CardError(path, "must be a string, not \(json.typeName)") }
        return text
    }

    /// A library value checked at a JSON path: its error names the path.
    static func checked<T>(_ path: String, _ make: () throws(ValueError) -> T) throws -> T {
        do {
            return try make()
        } catch {
            throw CardError(path, error.requirement)
        }
    }

    static func number(_ json: JSONValue, _ path: String) throws -> Double {
        do { return try OptionInput.json(json).number() } catch let error as OptionError { throw CardError(path, error.message) }
    }
}
