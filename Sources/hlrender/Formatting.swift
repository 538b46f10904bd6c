import Glibc

/// `value` with `digits` significant digits, trailing zeros dropped (like printf's %g for the
/// magnitudes a report shows).
func significant(_ value: Double, digits: Int = 4) -> String {
    guard value != 0, value.isFinite else { return value == 0 ? "0" : String(value) }
    let exponent = Int(log10(abs(value)).rounded(.down))
    let decimals = max(0, digits - 1 - exponent)
    let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
    let scaled = Int((abs(value) * scale).rounded())
    var text = String(scaled)
    if decimals > 0 {
        if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return (value < 0 ? "-" : "") + text
}
