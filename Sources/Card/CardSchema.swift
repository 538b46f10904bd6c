import Motion
import Render
import Support
import PDFPost
/// The JSON Schema of a card spec, generated from the option table so it cannot fall behind
/// (`schema/card.schema.json` is this, committed; a test keeps them equal).
package enum CardSchema {
    package static func json() -> JSONValue {
        func type(_ schemaType: String) -> JSONValue {
            let types = schemaType.split(separator: "|").map { JSONValue.string(String($0)) }
            return types.count == 1 ? types[0] : .array(types)
        }
        func property<T>(_ option: OptionDefinition<T>) -> (String, JSONValue) {
            var members: [(String, JSONValue)] = [("description", .string(option.help))]
            if option.name == "spans" {
                members += [("type", .array([.string("array"), .string("string")])),
                            ("items", .members([("type", .string("object")), ("required", .array([.string("text")]))]))]
            } else if option.schemaType == "array" {
                members += [("type", .array([.string("array"), .string("string")])), ("items", .members([("type", .string("string"))]))]
            } else {
                members.append(("type", type(option.schemaType)))
            }
            return (option.name, .members(members))
        }
        func options(_ scope: OptionModel.Scope) -> [(String, JSONValue)] {
            OptionModel.names(for: scope).compactMap(OptionModel.named).map(property)
        }
        // A row whose value is one of a few names, listed as the schema's enum.
        func choices<T>(_ option: OptionDefinition<T>, _ names: [String]) -> (String, JSONValue) {
            guard case let .object(members) = property(option).1 else { return property(option) }
            return (option.name, .object(members + [("enum", .array(names.map(JSONValue.string)))]))
        }
        let anchor = choices(BlockSpec.anchorRow, Anchor.allCases.map(\.rawValue))
        let offsetRow = BlockSpec.offsetRow
        let offset = (offsetRow.name, JSONValue.members([("description", .string(offsetRow.help)), ("type", .string("array")),
                                                         ("items", .members([("type", .string("number"))])),
                                                         ("minItems", .number(2)), ("maxItems", .number(2))]))
        // An effect: its name, or an object of the effect rows; a list of either.
        let effectNames = JSONValue.array(Effect.allCases.map { .string($0.rawValue) })
        let effectObject = JSONValue.members([
            ("type", .string("object")), ("required", .array([.string("effect")])), ("additionalProperties", .bool(false)),
            ("properties", .members(EffectSpec.options.map { option in
                option.name == "effect" ? ("effect", .members([("enum", effectNames)]))
                    : option.name == "easing" ? ("easing", .members([("enum", .array(Easing.allCases.map { .string($0.rawValue) }))]))
                    : (option.name, .members([("description", .string(option.help)), ("type", .string("number")), ("minimum", .number(0)),
                                              ("maximum", .number(AnimationTiming.maxDuration))]))
            })),
        ])
        let effect = JSONValue.members([("oneOf", .array([.members([("enum", effectNames)]), effectObject]))])
        let animationRow = BlockSpec.animationRow
        let animationSchema = JSONValue.members([("description", .string(animationRow.help)), ("oneOf", .array([
            effect, .members([("type", .string("array")), ("items", effect), ("minItems", .number(1)), ("maxItems", .number(16))]),
        ]))])
        let animation = (animationRow.name, JSONValue.members([("$ref", .string("#/$defs/animation"))]))
        func block(_ name: String, _ own: [(String, JSONValue)], required: [String] = []) -> JSONValue {
            .members([
                ("type", .string("object")),
                ("properties", .members([("type", .members([("const", .string(name))])), anchor, offset, animation] + own)),
                ("required", .array((["type"] + required).map(JSONValue.string))),
                ("additionalProperties", .bool(false)),
            ])
        }
        let number = JSONValue.members([("type", .string("number"))])
        let fit = JSONValue.members([
            ("type", .string("object")),
            ("properties", .members(FitSpec.options.map(property))),
            ("additionalProperties", .bool(false)),
        ])
        let background = JSONValue.members([("description", .string(CardSpec.backgroundRow.help)), ("oneOf", .array([
            .members([("type", .string("string")), ("description", .string("A colour, or transparent."))]),
            .members([("type", .string("object")), ("required", .array([.string("gradient")])), ("additionalProperties", .bool(false)),
                      ("properties", .members([("gradient", .members([
                          ("type", .string("object")), ("required", .array([.string("stops")])), ("additionalProperties", .bool(false)),
                          ("properties", .members([("angle", number), ("stops", .members([
                              ("type", .string("array")), ("minItems", .number(2)), ("items", .members([("type", .string("string"))])),
                          ]))])),
                      ]))]))]),
            .members([("type", .string("object")), ("required", .array([.string("image")])), ("additionalProperties", .bool(false)),
                      ("properties", .members([("image", .members([("type", .string("string"))])),
                                               ("fit", .members([("enum", .array([.string("cover"), .string("contain")]))])),
                                               ("blur", number),
                                               ("dim", .members([("type", .string("number")), ("minimum", .number(0)), ("maximum", .number(1))]))]))]),
        ]))])
        let blockRef = JSONValue.members([("$ref", .string("#/$defs/block"))])
        let blocks = JSONValue.members([("type", .string("array")), ("items", blockRef)])
        // Card-level defaults: every block key but the text itself (span-only keys are refused there).
        let defaults = OptionModel.all.filter {
            OptionModel.scope(of: $0.name) != .span && !(["text", "text-file", "steps", "steps-file"] + CardSpec.cardKeys).contains($0.name)
        }.map(property)
        return .members([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("hlrender card")),
            ("description", .string("A card for `hlrender card`: a background and blocks drawn in order. Text and steps block keys are the long option names of `hlrender render` and `hlrender steps`; card-level keys of those names are defaults for every block.")),
            ("type", .string("object")),
            ("required", .array([.string("blocks")])),
            ("properties", .members([
                property(CardSpec.sizeRow),
                ("scale", .members([("enum", .array([.number(1), .number(2), .number(3)])),
                                    ("description", .string(CardSpec.scaleRow.help))])),
                property(CardSpec.paddingRow),
                ("background", background),
                property(CardSpec.outputRow),
                ("pdf", .members([("description", .string(CardSpec.pdfRow.help)), ("type", .string("object")),
                                  ("properties", .members(PDFMetadata.options.map(property))), ("additionalProperties", .bool(false))])),
                ("blocks", blocks),
            ] + AnimationTiming.options.map(property) + defaults)),
            ("additionalProperties", .bool(false)),
            ("$defs", .members([
                ("animation", animationSchema),
                ("block", .members([("oneOf", .array([
                    .members([("$ref", .string("#/$defs/text"))]), .members([("$ref", .string("#/$defs/steps"))]),
                    .members([("$ref", .string("#/$defs/image"))]), .members([("$ref", .string("#/$defs/stack"))]),
                ]))])),
                ("text", block("text", options(.text) + [("fit", fit)])),
                ("steps", block("steps", options(.steps) + [("fit", fit)])),
                ("image", block("image", ImageSettings.options.map(property), required: ["src"])),
                ("stack", block("stack", [property(StackSettings.gapRow),
                                          choices(StackSettings.alignRow, HorizontalAlign.allCases.map(\.rawValue)),
                                          ("blocks", blocks)], required: ["blocks"])),
            ])),
        ])
    }
}
