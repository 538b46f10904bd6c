import Codecs
import Glibc
import Render
import Flags
import Compare
import Goldens
import PDFGoldens
import Support

struct CompareCommand: Command {
    static let info = CommandInfo(
        name: "compare",
        abstract: "Compare two images, two folders of them, or two PDFs, for golden-image tests.",
        discussion: """
            Two files: PNG (8- or 16-bit, any colour type), JPEG or WebP. Two folders: every PNG, JPEG and WebP file under them, \
            matched by relative path, each reported as same, within (differs within the limits), \
            changed, new (no baseline) or missing (no actual file), with why it differs: size \
            changed, content shifted by (dx, dy), anti-aliasing only, colour only, or changed.
            Pixels are compared by perceptual colour difference in YIQ space (alpha blended over \
            white; pixelmatch 7's rule); pixels that look like anti-aliasing in either image are not \
            counted unless --count-aa. A pixel whose alphas differ by more than threshold x 255 \
            counts as different even when the colours over white agree. --metric ssim scores each \
            image by structural similarity instead (as scikit-image computes it) against --min-ssim.
            Two PDFs: the page count, each page rasterised by poppler at --dpi and compared as an \
            image, each page's words, its links (moved, added, removed) and the outline.
            Options per glob of paths come from a config file (--config, or goldens.json in the \
            expected folder): the file's options, then the flags, then each matching rule.
            Exit status: 0 match, 1 images differ (folders: any file not same or within; PDFs: any \
            page, word, link or bookmark), 2 sizes \
            differ (two files), 3 bad input (unreadable, not an image, bad option).
            """,
        examples: [
            "hlrender compare golden.png actual.png",
            "hlrender compare goldens/ out/ --html-report report/ --junit junit.xml",
            "hlrender compare goldens/ out/ --update",
        ])

    @Argument(help: Help("The expected (golden) image, or a folder of them.", valueName: "expected")) var expected: String
    @Argument(help: Help("The image to check, or a folder of them.", valueName: "actual")) var actual: String
    @Group var options: CompareOptions
    @Group("Configs and baselines") var golden: GoldenRunFlags
    @Group("Folders") var folders: FolderFlags
    @Group var pixelLimit: PixelLimitFlags
    @Group var limits: InputLimits

    func run() throws {
        _ = try options.tolerance()  // bad options before any file work
        let maxPixels = try pixelLimit.pixels()
        let kinds = (Posix.kind(expected), Posix.kind(actual))
        if kinds.0 == .folder || kinds.1 == .folder {
            guard kinds.0 == kinds.1 else {
                throw CLIFailure(message: "\(kinds.0 == .folder ? actual : expected): compare takes two files or two folders")
            }
            let status = try runFolderComparison(expected: expected, actual: actual, options: options, flags: folders, run: golden,
                                                 maxPixels: maxPixels, maxFileBytes: limits.image)
            if status != ExitStatus.success { throw ExitCode(status) }
            return
        }
        let config = try golden.loadConfig(folder: nil)
        let tolerance = config.tolerance(for: expected.hasPrefix("./") ? String(expected.dropFirst(2)) : expected,
                                         base: try golden.base(config, flags: options.diffFlags))
        let expectedBytes = try Posix.readFile(expected, as: "image", limit: limits.image)
        let actualBytes = try Posix.readFile(actual, as: "image", limit: limits.image)
        let pdfs = (PDFComparison.isPDF(expectedBytes), PDFComparison.isPDF(actualBytes))
        guard pdfs.0 == pdfs.1 else {
            let (pdf, other) = pdfs.0 ? (expected, actual) : (actual, expected)
            throw CLIFailure(message: "\(pdf) is a PDF and \(other) is not: compare two PDFs or two images")
        }
        if pdfs.0 {
            let status = try runPDFComparison(expected: expectedBytes, actual: actualBytes, names: (expected, actual), options: options,
                                              folders: folders, tolerance: tolerance, maxPixels: maxPixels)
            if status != ExitStatus.success { throw ExitCode(status) }
            return
        }
        if !folders.folderOnly.isEmpty { throw CLIFailure(message: "\(folders.folderOnly.joined(separator: ", ")): for two folders (or two PDFs)") }
        // Two animations compare frame by frame; either way a changed baseline is updated or
        // kept as a candidate below.
        let status = AnimationFrames.isAnimation(expectedBytes) || AnimationFrames.isAnimation(actualBytes)
            ? try runAnimationComparison(expected: expectedBytes, actual: actualBytes, names: (expected, actual), options: options,
                                         tolerance: tolerance ?? options.tolerance(), maxPixels: maxPixels)
            : try runComparison(expected: expectedBytes, actual: actualBytes, names: (expected, actual), options: options,
                                tolerance: tolerance, maxPixels: maxPixels)
        if status != ExitStatus.success {
            if golden.update?.writes(.changed) == true {
                try CLIOutput.write(actualBytes, to: expected)
                Posix.writeAll(STDERR_FILENO, Array("hlrender: updated \(expected)\n".utf8))
                return
            }
            if let candidates = golden.candidates {
                try Posix.makeFolders(candidates)
                let name = actual.split(separator: "/").last.map(String.init) ?? actual
                try CLIOutput.write(actualBytes, to: candidates + "/" + name, confinedTo: candidates)
            }
        }
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
