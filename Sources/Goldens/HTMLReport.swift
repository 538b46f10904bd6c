import Typeset
import Support

/// A golden suite's report: one `index.html` and its images, readable offline from the file
/// system (no external resource, plain JavaScript). Summary counts on top, what changed in the
/// environment, failures first (expected | actual | difference, a slider to compare the two
/// in place, the numbers, the row and the spec), passes listed collapsed.
package enum HTMLReport {
    package struct File: Sendable {
        package var path: String
        package var bytes: [UInt8]
    }

    package static func files(_ results: [GoldenResult], environment: [String], title: String = "hlrender golden report",
                              noun: String = "cards", detail: String = "spec") -> [File] {
        var files: [File] = []
        var sections = ""
        let failing = results.filter { $0.status.fails }.sorted { order($0) < order($1) || (order($0) == order($1) && $0.row < $1.row) }
        for result in failing {
            var images: [(String, String)] = []
            for (kind, bytes) in [("expected", result.expected), ("actual", result.actual), ("difference", result.difference)] {
                guard let bytes else { continue }
                let path = "images/\(result.row)-\(kind).png"
                files.append(File(path: path, bytes: bytes))
                images.append((kind, path))
            }
            sections += section(result, images: images, detail: detail, rows: noun == "cards")
        }
        let passed = results.filter { !$0.status.fails }.sorted { $0.row < $1.row }
        let counts = GoldenStatus.counts(results.map(\.status)).map { ($0.0.rawValue, $0.1, $0.0.meaning) }
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>\(style)</style></head><body>
            <header><h1>\(escape(title))</h1><p class="summary">
            """
        html += counts.map { "<span class=\"count \($0.0)\" title=\"\(escape($0.2))\">\($0.1) \($0.0)</span>" }.joined(separator: " ")
        html += " <span class=\"total\">of \(results.count) \(escape(noun))</span></p>\n"
        if !environment.isEmpty {
            html += "<div class=\"env\"><strong>Changed since the goldens were recorded:</strong><ul>"
                + environment.map { "<li>\(escape($0))</li>" }.joined() + "</ul></div>\n"
        }
        html += "</header><main>\n" + sections
        html += "<details class=\"passes\"><summary>\(GoldenStatus.summary(passed.map(\.status)))</summary><ul>"
            + passed.map { "<li>\(escape($0.name)) <small>row \($0.row), \(escape($0.message))</small></li>" }.joined()
            + "</ul></details>\n</main><script>\(script)</script></body></html>\n"
        files.append(File(path: "index.html", bytes: Array(html.utf8)))
        return files
    }

    private static func order(_ result: GoldenResult) -> Int {
        GoldenStatus.allCases.firstIndex(of: result.status)!
    }

    private static func section(_ result: GoldenResult, images: [(String, String)], detail: String, rows: Bool) -> String {
        let place = rows ? "row \(result.row) · " : ""
        var html = "<section class=\"card \(result.status.rawValue)\"><h2>\(escape(result.name)) <small>\(place)\(result.status.rawValue)</small></h2>\n"
        var numbers = escape(result.message)
        if let diff = result.diff {
            numbers += " · \(diff.differentPixels) of \(diff.width * diff.height) pixels, ratio \((diff.ratio * 1_000_000).rounded() / 1_000_000)"
        }
        html += "<p class=\"numbers\">\(numbers)</p>\n<div class=\"panels\">"
        for (kind, path) in images {
            html += "<figure><img src=\"\(path)\" alt=\"\(kind)\"><figcaption>\(kind)</figcaption></figure>"
        }
        html += "</div>\n"
        let expected = images.first { $0.0 == "expected" }?.1, actual = images.first { $0.0 == "actual" }?.1
        if let expected, let actual {
            html += """
                <div class="slider"><p>Drag to compare: expected on the left of the line, actual on the right.</p>
                <div class="stack"><img src="\(actual)" alt="actual"><div class="over"><img src="\(expected)" alt="expected"></div></div>
                <input type="range" min="0" max="100" value="50" aria-label="compare expected and actual"></div>

                """
        }
        // A card's spec starts folded; a page's text changes are the point, shown open.
        if !result.spec.isEmpty { html += "<details\(detail == "spec" ? "" : " open")><summary>\(escape(detail))</summary><pre>\(escape(result.spec))</pre></details>" }
        html += "</section>\n"
        return html
    }

    static func escape(_ text: String) -> String { text.xmlEscaped }

    private static let style = """
        body{font:15px/1.4 system-ui,sans-serif;margin:0;background:#f4f4f6;color:#222}
        header{background:#fff;padding:16px 24px;border-bottom:1px solid #ddd}
        h1{font-size:20px;margin:0 0 8px}
        .count{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;margin-right:4px}
        .count.changed{background:#fde2e2;color:#a10000}.count.new,.count.missing{background:#fff0c2;color:#7a5200}
        .count.error{background:#eee;color:#555}.count.same,.count.within{background:#dff5e1;color:#116b21}
        .env{margin-top:8px;background:#fff7e0;border:1px solid #e7c66b;padding:8px 12px;border-radius:6px}
        .env ul{margin:4px 0 0 18px;padding:0}
        main{padding:16px 24px}
        section.card{background:#fff;border:1px solid #ddd;border-left:6px solid #d33;border-radius:6px;padding:12px 16px;margin-bottom:16px}
        section.card.new,section.card.missing{border-left-color:#e0a800}section.card.error{border-left-color:#888}
        h2{font-size:16px;margin:0}h2 small{font-weight:400;color:#666}
        .numbers{margin:4px 0 8px;color:#444}
        .panels{display:flex;gap:12px;align-items:flex-start}
        figure{margin:0;text-align:center}
        figure img,.stack img{max-width:320px;max-height:320px;display:block;border:1px solid #ccc;
          background:repeating-conic-gradient(#eee 0% 25%,#fff 0% 50%) 0 0/16px 16px}
        figcaption{font-size:13px;color:#555}
        .slider p{margin:10px 0 4px;font-size:13px;color:#555}
        .stack{position:relative;display:inline-block}
        .over{position:absolute;top:0;left:0;bottom:0;width:50%;overflow:hidden;border-right:2px solid #d33}
        .over img{max-width:none}
        .slider input{display:block;width:320px}
        pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
        details.passes{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 16px}
        """

    // The overlay keeps the full image's size (its width is set from the image under it) and
    // is clipped to the slider's share.
    private static let script = """
        document.querySelectorAll('.slider').forEach(function (slider) {
          var stack = slider.querySelector('.stack'), over = slider.querySelector('.over'),
              base = stack.querySelector(':scope > img'), top = over.querySelector('img'),
              range = slider.querySelector('input');
          function fit() { top.style.width = base.clientWidth + 'px'; top.style.height = base.clientHeight + 'px'; }
          function move() { over.style.width = range.value + '%'; }
          base.addEventListener('load', fit); fit(); range.addEventListener('input', move); move();
        });
        """
}
