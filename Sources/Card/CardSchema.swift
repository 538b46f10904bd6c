import Render
import Support
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
        let anchor = JSONValue.members([("enum", .array(Anchor.allCases.map { .string($0.rawValue) }))])
        let offset = JSONValue.members([("type", .string("array")), ("items", .members([("type", .string("number"))])),
                                        ("minItems", .number(2)), ("maxItems", .number(2))])
        func block(_ name: String, _ own: [(String, JSONValue)], required: [String] = []) -> JSONValue {
            .members([
                ("type", .string("object")),
                ("properties", .members([("type", .members([("const", .string(name))])), ("anchor", anchor), ("offset", offset)] + own)),
                ("required", .array((["type"] + required).map(JSONValue.string))),
                ("additionalProperties", .bool(false)),
            ])
        }
        let number = JSONValue.members([("type", .string("number"))])
        let fit = JSONValue.members([
            ("type", .string("object")),
            ("properties", .members([("width", number), ("height", number), ("min-size", number),
                                     ("max-lines", .members([("type", .string("integer")), ("minimum", .number(1))]))])),
            ("additionalProperties", .bool(false)),
        ])
        let background = JSONValue.members([("description", .string(CardSpec.options.named("background")!.help)), ("oneOf", .array([
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
        let defaults = OptionModel.all.filter { !(["text", "text-file", "steps", "steps-file"] + CardSpec.cardKeys).contains($0.name) }.map(property)
        return .members([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("hlrender card")),
            ("description", .string("A card for `hlrender card`: a background and blocks drawn in order. Text and steps block keys are the long option names of `hlrender render` and `hlrender steps`; card-level keys of those names are defaults for every block.")),
            ("type", .string("object")),
            ("required", .array([.string("blocks")])),
            ("properties", .members([
                property(CardSpec.options.named("size")!),
                ("scale", .members([("enum", .array([.number(1), .number(2), .number(3)])),
                                    ("description", .string(CardSpec.options.named("scale")!.help))])),
                property(CardSpec.options.named("padding")!),
                ("background", background),
                property(CardSpec.options.named("output")!),
                ("pdf", .members([("description", .string(CardSpec.options.named("pdf")!.help)), ("type", .string("object")),
                                  ("properties", .members(PDFMetadata.options.map(property))), ("additionalProperties", .bool(false))])),
                ("blocks", blocks),
            ] + defaults)),
            ("additionalProperties", .bool(false)),
            ("$defs", .members([
                ("block", .members([("oneOf", .array([
                    .members([("$ref", .string("#/$defs/text"))]), .members([("$ref", .string("#/$defs/steps"))]),
                    .members([("$ref", .string("#/$defs/image"))]), .members([("$ref", .string("#/$defs/stack"))]),
                ]))])),
                ("text", block("text", options(.text) + [("fit", fit)])),
                ("steps", block("steps", options(.steps) + [("fit", fit)])),
                ("image", block("image", [("src", .members([("type", .string("string"))])), ("width", number), ("height", number),
                                          ("radius", number)], required: ["src"])),
                ("stack", block("stack", [("gap", number), ("align", .members([("enum", .array([.string("left"), .string("center"), .string("right")]))])),
                                          ("blocks", blocks)], required: ["blocks"])),
            ])),
        ])
    }
}
