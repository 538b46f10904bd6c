import Card
import PDFGoldens
import Render
import Support

/// The SVG a geometry input names, served to the card as its only file (one thread at a time).
nonisolated(unsafe) private var currentSVG: [UInt8] = []

extension Harness {
    /// An engine whose one file is the SVG the current input made.
    static let geometryEngine: Engine = {
        var world = Harness.engine.world
        world.readFile = { _ in currentSVG }
        return Engine(world: world)
    }()

    /// Extreme geometry (issue 48): the input's bytes as doubles, every bit pattern (NaN,
    /// infinities, 1e308, denormals, negatives) fed to the checked conversions, an SVG
    /// picture's size, viewBox and the image block that draws it (card measuring and drawing),
    /// a blurred background's size, and a PDF's MediaBox at a DPI (page sizing). Any answer
    /// is fine; a trap is a finding.
    static func geometry(_ data: [UInt8]) {
        var numbers: [Double] = stride(from: 0, to: data.count - 7, by: 8).map { i in
            Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(data[i + $1]) })
        }
        while numbers.count < 8 { numbers.append([0, 1, -1, 1e300][numbers.count % 4]) }
        for value in numbers {
            _ = try? Checked.side(value, "value")
            _ = Checked.clamped(value, .up, in: -5...5)
            _ = try? Checked.int(value, "value")
        }
        let text = numbers.map { $0.isNaN ? "nan" : String($0) }
        currentSVG = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(text[0])" height="\#(text[1])" viewBox="0 0 \#(text[2]) \#(text[3])"><rect width="5" height="5"/></svg>"#.utf8)
        for size in [[("width", numbers[4])], [("height", numbers[5])], [("width", numbers[4]), ("height", numbers[5])], []] {
            let members: [(String, JSONValue)] = [("type", .string("image")), ("src", .string("p.svg"))] + size.map { ($0.0, .number($0.1)) }
            let card = JSONValue.object([("size", .string("120x80")), ("scale", .number(abs(numbers[6]).truncatingRemainder(dividingBy: 4))),
                                         ("blocks", .array([.object(members)]))])
            _ = try? geometryEngine.render(card, variables: [:], folder: "/nonexistent", job: Job(format: .png))
        }
        let box = numbers.prefix(4).map { $0.isFinite ? String($0) : "1e999" }.joined(separator: " ")
        if let pdf = try? PDFFile(pdfPage(box)) {
            _ = try? pdf.pixelSize(ofPage: 0, dpi: numbers[7])
            _ = try? pdf.render(page: 0, dpi: min(600, max(18, abs(numbers[7]).isFinite ? abs(numbers[7]) : 72)), maxPixels: 300_000)
        }
    }

    private static func pdfPage(_ box: String) -> [UInt8] {
        Array("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [\(box)] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)
    }
}
