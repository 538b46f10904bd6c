import Foundation
import TestSupport
import Testing

/// Issue 53: `compare hello.pdf story.png` said "story.png: PDF document is damaged".
@Suite struct CompareKindTests {
    @Test func aPDFAndAnImageAreNamedAsTwoKinds() throws {
        let dir = try CLI.scratchFolder()
        let pdf = dir.appendingPathComponent("hello.pdf").path, png = dir.appendingPathComponent("story.png").path
        #expect(try CLI.run(["render", "--text", "hi", "-o", pdf]).status == 0)
        #expect(try CLI.run(["render", "--text", "hi", "-o", png]).status == 0)
        for (a, b) in [(pdf, png), (png, pdf)] {
            let result = try CLI.run(["compare", a, b])
            #expect(result.status == 3)
            #expect(result.stderr.contains("\(pdf) is a PDF and \(png) is not"), "\(result.stderr)")
        }
    }
}

/// Issue 53: a card with two unset variables named one per run.
@Suite struct MissingVariablesTests {
    @Test func everyMissingVariableIsNamedAtOnce() throws {
        let dir = try CLI.scratchFolder()
        let spec = dir.appendingPathComponent("v.json").path
        try Data(#"{"size": "400x200", "blocks": [{"type": "text", "text": "{{b}} {{a}}"}, {"type": "text", "text": "{{c}}"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: spec))
        let result = try CLI.run(["card", spec, "--var", "c=x", "-o", dir.appendingPathComponent("v.png").path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("variables {{a}}, {{b}} have no value (give --var a=... --var b=...)"), "\(result.stderr)")
        let one = try CLI.run(["card", spec, "--var", "c=x", "--var", "a=1", "-o", dir.appendingPathComponent("v.png").path])
        #expect(one.stderr.contains("variable {{b}} has no value (give --var b=...)"), "\(one.stderr)")
    }
}

/// Issue 53: `--html-report /nonexistent/dir/rep` made the whole path while `-o` refuses a
/// missing folder. One rule now: the report's folder is made, its parent must exist.
@Suite struct ReportFolderTests {
    @Test func aReportFolderNeedsItsParent() throws {
        let dir = try CLI.scratchFolder()
        for folder in ["expected", "actual"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            #expect(try CLI.run(["render", "--text", folder, "-o", dir.appendingPathComponent("\(folder)/a.png").path]).status == 0)
        }
        let deep = dir.appendingPathComponent("no/such/report").path
        let refused = try CLI.run(["compare", dir.appendingPathComponent("expected").path, dir.appendingPathComponent("actual").path, "--html-report", deep])
        #expect(refused.status == 3 && refused.stderr.contains("does not exist"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no").path))
        let report = dir.appendingPathComponent("report").path
        let made = try CLI.run(["compare", dir.appendingPathComponent("expected").path, dir.appendingPathComponent("actual").path, "--html-report", report])
        #expect(made.status == 1 && FileManager.default.fileExists(atPath: report + "/index.html"), "\(made.stderr)")
    }
}
