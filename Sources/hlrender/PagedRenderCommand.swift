import Card
import Pages
import Render
import Typeset
import Support

/// `render --page`: the text wrapped to the page and flowed across as many pages as it needs.
extension RenderCommand {
    func checkPaged(format: OutputFormat) throws {
        guard format == .pdf else { throw CLIFailure(message: "--page makes PDF pages; the output format is \(format.rawValue)") }
        guard expect == nil else { throw CLIFailure(message: "--expect compares PNG renders, not pages") }
        guard output.canvas == nil else { throw CLIFailure(message: "--canvas and --page both set the size: give one") }
        guard output.scale.map({ Double($0) == 1 }) ?? true else { throw CLIFailure(message: "--scale is for images; --page sets the PDF's size") }
    }

    /// Markdown's pictures: files, relative to the Markdown file's folder (or the current
    /// one), read with the input bound (`PagedPDF` decodes each once).
    func markdownPictures() throws -> (String) throws -> RasterImage {
        let file = text.markdownFile.flatMap { $0 == "-" ? nil : $0 }
        let folder = file.map { path in path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." } ?? "."
        let (limit, maxPixels) = (limits.image, try output.pixelLimit.pixels())
        return { source in
            guard !source.contains("://") else { throw CLIFailure(message: "pictures are read from files, not from addresses") }
            let path = source.hasPrefix("/") ? source : folder + "/" + source
            return try RasterImage(decoding: try Posix.readFile(path, as: "picture", limit: limit), maxPixels: maxPixels)
        }
    }

    func runPaged(settings: BlockSettings, setup: PageSetup, fonts: FontContext) throws {
        ReuseMemory.forOneLongDocument()  // before the layout: its chunks are laid out on other threads
        let document: PagedPDF
        do {
            document = try PagedPDF(settings: settings, setup: setup, fonts: fonts,
                                    background: try output.backgroundColor(highlighted: false), picture: try markdownPictures())
        } catch let error as CardError {
            throw CLIFailure(message: flagWording(error))
        }
        let paged = document.text
        var dump = output.dumpLayout.map { _ in PagedDump(document) }
        let visit: (PagedText.Page, PagedText.Body) throws -> Void = { page, body in try dump?.add(page, body) }
        let options = try output.renderOptions(format: .pdf, scale: 1)
        if let path = output.output {
            // Streamed page by page into the temporary file that becomes `path` (a long document
            // is never whole in memory); a failure leaves no file.
            try CLIOutput.stream(to: path) { put in _ = try document.render(options: options, stream: put, visit: visit) }
        } else {
            try paged.forEachPage(visit)
        }
        warnAboutDroppedMarks(count: paged.droppedMarks)
        if let path = output.dumpLayout, let dump { try CLIOutput.write(dump.encoded(), to: path) }
    }
}
