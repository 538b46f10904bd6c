import Card
import Support

/// Machine reports (layout dumps, `compare --json`) use the card library's ordered JSON value.
typealias JSON = JSONValue
