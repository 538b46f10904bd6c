/// A value outside what it may be: which value, what it was, and what it must be. Library code
/// throws it; each front end words the name in its own terms (a flag, a JSON path, a field).
package struct ValueError: Error, CustomStringConvertible, Sendable, Equatable {
    package var name: String
    package var value: String
    package var expected: String

    package init(_ name: String, _ value: Double, expected: String) {
        self.init(name, Checked.describe(value), expected: expected)
    }

    package init(_ name: String, _ value: String, expected: String) {
        (self.name, self.value, self.expected) = (name, value, expected)
    }

    /// "must be a number from 0 to 1, got 2": for front ends that name the value their own way.
    package var requirement: String { "must be \(expected), got \(value)" }

    package var description: String { "\(name) \(requirement)" }
}

/// The checks every number passes before it sizes an allocation or reaches a conversion: one
/// place, so no NaN, infinity or 1e300 can trap an `Int(_:)` or wrap an `Int32(_:)`.
package enum Checked {
    /// The longest length any option or scene value needs, in px (past it, sums and Cairo's
    /// fixed-point coordinates overflow).
    package static let maxLength = 1_000_000.0

    /// `value` when it is finite and inside `range`.
    package static func number(_ value: Double, _ name: String, in range: ClosedRange<Double>) throws(ValueError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw ValueError(name, value, expected: "a number from \(describe(range.lowerBound)) to \(describe(range.upperBound))")
        }
        return value
    }

    /// A length in px: finite, and within ±`maxLength` (or 0...`maxLength` when not `signed`).
    package static func length(_ value: Double, _ name: String, signed: Bool = false) throws(ValueError) -> Double {
        try number(value, name, in: (signed ? -maxLength : 0)...maxLength)
    }

    /// A whole number from a Double: refused when not finite or outside `range` (never a trap).
    package static func int(_ value: Double, _ name: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(ValueError) -> Int {
        guard value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw ValueError(name, value, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    /// The longest side, in pixels or points, any surface, page or picture may have: past it
    /// Cairo's 32-bit sizes and pixman's strides overflow.
    package static let maxSide = 1 << 20

    /// A whole number of pixels (or points) from a floating size, rounded up and at least 1:
    /// refused when not finite, not above 0 or over `limit`. The one conversion every path from
    /// input geometry (PDF boxes, SVG sizes, aspect ratios, scales, DPI) to an allocation takes.
    package static func side(_ value: Double, _ name: String, limit: Int = maxSide) throws(ValueError) -> Int {
        guard value.isFinite, value > 0, value <= Double(limit) else {
            throw ValueError(name, value, expected: "a size above 0 and at most \(limit) px")
        }
        return Swift.max(1, Int(value.rounded(.up)))
    }

    /// A floating position as a whole number, rounded as `rule` says and clamped into `range`
    /// (NaN gives the range's lower end): for values already bounded by a canvas, where
    /// clamping is the meaning, never a trap.
    package static func clamped(_ value: Double, _ rule: FloatingPointRoundingRule, in range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        let r = value.rounded(rule)
        if r <= Double(range.lowerBound) { return range.lowerBound }
        if r >= Double(range.upperBound) { return range.upperBound }
        return Int(r)
    }

    /// An Int inside `range`.
    package static func int(_ value: Int, _ name: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard range.contains(value) else {
            throw ValueError(name, String(value), expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Whether a `width` x `height` surface stays within `limit` pixels (sides of any size:
    /// the product is never formed where it could overflow).
    package static func pixels(_ width: Int, _ height: Int, within limit: Int) -> Bool {
        guard width >= 0, height >= 0 else { return false }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && product <= limit
    }

    /// A number as messages show it: whole numbers without ".0".
    package static func describe(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A Gaussian blur's standard deviation in px: 0 (no blur) to `Sigma.max`. Past the maximum
/// the padding a blur needs alone would be larger than any canvas.
package struct Sigma: Sendable, Equatable, Hashable, CustomStringConvertible {
    package static let max = 200.0
    package let value: Double

    package init(_ value: Double, _ name: String = "blur") throws(ValueError) {
        self.value = try Checked.number(value, name, in: 0...Sigma.max)
    }

    package static let zero = try! Sigma(0)
    package var description: String { Checked.describe(value) }
}

/// A fraction from 0 to 1 (an opacity, a dimming, a position along a gradient).
package struct Fraction: Sendable, Equatable, Hashable, CustomStringConvertible {
    package let value: Double

    package init(_ value: Double, _ name: String) throws(ValueError) {
        self.value = try Checked.number(value, name, in: 0...1)
    }

    package static let zero = try! Fraction(0, "fraction")
    package var description: String { Checked.describe(value) }
}
