import Support

/// A card spec, or any value in one, as a Swift value: what `schema/card.schema.json`
/// describes, written with literals instead of JSON text. Object members keep their order (an
/// error names the first bad key as written).
///
/// ```swift
/// let card: CardValue = ["size": "1080x1920", "background": "#E9446A",
///                        "blocks": [["type": "text", "text": "Hello", "highlight": "white"]]]
/// ```
public indirect enum CardValue: Sendable, Equatable {
    /// Text.
    case string(String)
    /// A number.
    case number(Double)
    /// A flag.
    case bool(Bool)
    /// A list.
    case list([CardValue])
    /// An object, its members in order.
    case object([Member])
    /// JSON's null.
    case null

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        /// The key.
        public var key: String
        /// Its value.
        public var value: CardValue

        /// `key: value`.
        public init(_ key: String, _ value: CardValue) { (self.key, self.value) = (key, value) }
    }

    /// The value as the card parser reads it.
    var json: JSONValue {
        switch self {
        case let .string(text): return .string(text)
        case let .number(number): return .number(number)
        case let .bool(flag): return .bool(flag)
        case let .list(items): return .array(items.map(\.json))
        case let .object(members): return .object(members.map { ($0.key, $0.value.json) })
        case .null: return .null
        }
    }
}

extension CardValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    /// Text from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number from an integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number from a literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A flag from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A list from a literal.
    public init(arrayLiteral elements: CardValue...) { self = .list(elements) }
    /// An object from a literal, in its order.
    public init(dictionaryLiteral elements: (String, CardValue)...) { self = .object(elements.map { Member($0.0, $0.1) }) }
    /// null.
    public init(nilLiteral: ()) { self = .null }
}
