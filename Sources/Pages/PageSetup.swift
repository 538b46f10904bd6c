import Support

/// A bad page option, said in one line naming the option.
package struct PageError: Error, CustomStringConvertible, Sendable {
    /// The page option at fault (its flag, key or field name without dashes), if one is.
    package let option: String?
    package let message: String
    init(_ option: String?, _ message: String) { (self.option, self.message) = (option, message) }
    package var description: String { option.map { "\($0): \(message)" } ?? message }
}

/// A page size in PDF points (1/72 in); a layout pixel is one point on a page.
package struct PageSize: Equatable, Sendable {
    package let width: Double
    package let height: Double

    package init(width: Double, height: Double) throws(ValueError) {
        self.width = try Checked.number(width, "page width", in: 1...PageSize.maxSide)
        self.height = try Checked.number(height, "page height", in: 1...PageSize.maxSide)
    }

    package static let a4 = try! PageSize(width: 595.2756, height: 841.8898)
    package static let a5 = try! PageSize(width: 419.5276, height: 595.2756)
    package static let letter = try! PageSize(width: 612, height: 792)
    package static let legal = try! PageSize(width: 612, height: 1008)
    package static let named: [(String, PageSize)] = [("a4", .a4), ("a5", .a5), ("letter", .letter), ("legal", .legal)]

    /// A PDF page side is at most 200 in (14,400 pt): PDF readers refuse larger ones.
    package static let maxSide = 14_400.0

    /// `a4`, `a5`, `letter`, `legal` (add `-landscape` to turn it) or `WxH` with units `pt`,
    /// `mm` or `in` on either number or after both ("210x297mm", "8.5inx11in"; none: pt).
    package init(parsing text: String) throws {
        let lower = text.lowercased()
        var name = lower, landscape = false
        if name.hasSuffix("-landscape") {
            name.removeLast("-landscape".count)
            landscape = true
        }
        if let size = PageSize.named.first(where: { $0.0 == name })?.1 {
            self = landscape ? try PageSize(width: size.height, height: size.width) : size
            return
        }
        let parts = lower.split(separator: "x", omittingEmptySubsequences: false)
        let trailing = parts.count == 2 ? PageLength.unit(of: parts[1]) : nil
        guard parts.count == 2, let w = PageLength.points(parts[0], defaultUnit: trailing),
              let h = PageLength.points(parts[1], defaultUnit: nil) else {
            throw PageError("page", "'\(text)' is not a4, a5, letter, legal or WIDTHxHEIGHT (units pt, mm, in), e.g. 210x297mm")
        }
        do {
            try self.init(width: w, height: h)
        } catch {
            throw PageError("page", "'\(text)' must have sides between 1 and \(Int(PageSize.maxSide)) pt (200 in)")
        }
    }
}

/// Lengths with a unit, in points.
enum PageLength {
    static let units: [(String, Double)] = [("pt", 1), ("mm", 72 / 25.4), ("cm", 72 / 2.54), ("in", 72)]

    static func unit(of text: Substring) -> String? {
        units.first { text.hasSuffix($0.0) }?.0
    }

    /// "12", "12pt", "20mm", "1in"; a bare number takes `defaultUnit` (else pt).
    static func points(_ text: Substring, defaultUnit: String?) -> Double? {
        let trimmed = text.trimmingPrefix(while: \.isWhitespace)
        var number = Substring(trimmed), factor = units.first { $0.0 == defaultUnit }?.1 ?? 1
        if let unit = units.first(where: { trimmed.hasSuffix($0.0) }) {
            number = trimmed.dropLast(unit.0.count)
            factor = unit.1
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * factor
    }
}

/// Space between the page's edges and its text, in points.
package struct PageMargins: Equatable, Sendable {
    package let top: Double, right: Double, bottom: Double, left: Double

    package init(top: Double, right: Double, bottom: Double, left: Double) throws(ValueError) {
        let side = { (v: Double, name: String) throws(ValueError) in try Checked.number(v, "page margin " + name, in: 0...PageSize.maxSide) }
        (self.top, self.right, self.bottom, self.left) = (try side(top, "top"), try side(right, "right"), try side(bottom, "bottom"), try side(left, "left"))
    }

    package static let `default` = try! PageMargins(parsing: "20mm")

    /// One to four lengths in CSS order: all; vertical horizontal; top horizontal bottom;
    /// top right bottom left.
    package init(parsing text: String) throws {
        let values = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map { PageLength.points($0, defaultUnit: nil) }
        guard (1...4).contains(values.count), let v = values as? [Double] else {
            throw PageError("page-margin", "'\(text)' is not one to four lengths (pt, mm, in), e.g. '20mm' or '1in 0.75in'")
        }
        do {
            switch v.count {
            case 1: try self.init(top: v[0], right: v[0], bottom: v[0], left: v[0])
            case 2: try self.init(top: v[0], right: v[1], bottom: v[0], left: v[1])
            case 3: try self.init(top: v[0], right: v[1], bottom: v[2], left: v[1])
            default: try self.init(top: v[0], right: v[1], bottom: v[2], left: v[3])
            }
        } catch {
            throw PageError("page-margin", "'\(text)': \(error)")
        }
    }
}

/// How a long text is put on pages.
package struct PageSetup: Sendable {
    package var size: PageSize
    package var margins: PageMargins
    /// Least lines of a paragraph left at the bottom of a page / carried to the top of the next
    /// (CSS `orphans` / `widows`).
    package var orphans = 2
    package var widows = 2
    /// Text at the top of every page ({page} and {pages} filled in).
    package var header: String?
    /// The footer's page number, e.g. "{page} / {pages}"; nil: no page numbers.
    package var pageNumbers: String?
    /// Stop after this many pages (a preview of a long document's start).
    package var maxPages: Int?
    /// Where a long text's laid-out lines are spooled between the two passes (the caller's
    /// temporary folder); when no file can be made there the lines are laid out again instead.
    package var spoolFolder = "/tmp"

    package static let defaultNumberFormat = "{page} / {pages}"
    /// The body size on pages without --size: 12 pt, a document's, not a card's 48 px.
    package static let defaultFontSize = 12.0

    package init(size: PageSize, margins: PageMargins = .default) {
        self.size = size
        self.margins = margins
    }

    /// Checked here, not by each front end.
    package func validate() throws {
        if let maxPages, !PageSetup.pageCounts.contains(maxPages) {
            throw PageError("max-pages", "must be a whole number from 1 to \(PageSetup.pageCounts.upperBound), got \(maxPages)")
        }
        for (name, value) in [("orphans", orphans), ("widows", widows)] where !PageSetup.lineCounts.contains(value) {
            throw PageError(name, "must be a whole number from 1 to \(PageSetup.lineCounts.upperBound), got \(value)")
        }
        for (name, text) in [("header", header), ("page-number-format", pageNumbers)] {
            if let text { try PageSetup.checkPlaceholders(text, option: name) }
        }
        let m = margins
        guard m.left + m.right < size.width, m.top + m.bottom < size.height else {
            throw PageError("page-margin", "the margins leave no room on a \(Int(size.width))x\(Int(size.height)) pt page")
        }
    }

    /// "{page}" and "{pages}" are the only placeholders: a typo must not print literally.
    static func checkPlaceholders(_ text: String, option: String) throws {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return }
            let name = rest[rest.index(after: open)..<close]
            guard name == "page" || name == "pages" else {
                throw PageError(option, "unknown placeholder '{\(name)}' (use {page} and {pages})")
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    static func fill(_ text: String, page: Int, pages: Int) -> String {
        text.replacing("{pages}", with: String(pages)).replacing("{page}", with: String(page))
    }
}
