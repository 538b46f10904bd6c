/// A straight (non-premultiplied) RGBA colour, components in 0...1.
package struct Color: Equatable, Sendable, CustomStringConvertible {
    package var red: Double
    package var green: Double
    package var blue: Double
    package var alpha: Double

    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    package static let black = Color(red: 0, green: 0, blue: 0)
    package static let white = Color(red: 1, green: 1, blue: 1)
    package static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, a CSS colour name, or `transparent`.
    package init?(parsing text: String) {
        let lower = text.trimmed.lowercased()
        if lower == "transparent" { self = .transparent; return }
        if let rgb = cssColors[lower] {
            self.init(hex: rgb, digits: 6)
            return
        }
        guard lower.hasPrefix("#"), let value = UInt32(lower.dropFirst(), radix: 16),
              [3, 4, 6, 8].contains(lower.count - 1) else { return nil }
        self.init(hex: value, digits: lower.count - 1)
    }

    private init(hex: UInt32, digits: Int) {
        let short = digits <= 4
        let count = short ? digits : digits / 2
        let bits = short ? 4 : 8
        let max = Double((1 << bits) - 1)
        let parts = (0..<count).map { i -> Double in
            Double((hex >> UInt32((count - 1 - i) * bits)) & UInt32((1 << bits) - 1)) / max
        }
        self.init(red: parts[0], green: parts[1], blue: parts[2], alpha: count == 4 ? parts[3] : 1)
    }

    package var description: String {
        let bytes = [red, green, blue, alpha].map { Checked.clamped($0 * 255, .toNearestOrAwayFromZero, in: 0...255) }
        return "#" + bytes.map { hexByte(UInt8($0)) }.joined()
    }

    /// WCAG 2 relative luminance.
    package var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio between two opaque colours (1...21).
    package func contrast(with other: Color) -> Double {
        let a = luminance, b = other.luminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour composited over an opaque `background`.
    package func over(_ background: Color) -> Color {
        let a = alpha
        return Color(red: red * a + background.red * (1 - a), green: green * a + background.green * (1 - a),
                     blue: blue * a + background.blue * (1 - a), alpha: 1)
    }
}

import Glibc
import Typeset
import Support
