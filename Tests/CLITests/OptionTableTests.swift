import Batch
import Card
import Foundation
import Goldens
import Pages
import Render
import ServeConfig
import Support
import Testing
import TestSupport

/// The option tables are the one definition of every option. Walked whole: for each option and
/// sample values (the limits, just past them, and values of every kind), a CLI string and the
/// same JSON value parse to the same result or the same error; the CLI's flag of that name
/// refuses exactly what the table refuses, in the table's words; and a card key does too.
@Suite struct OptionTableTests {
    static let samples = [
        "-1", "0", "0.5", "1", "2", "3", "8", "20", "21", "100", "101", "200", "201", "1000", "1001", "10000", "10001",
        "100000", "100001", "1000000", "1000001", "1e+300", "-1e+300", "nan", "inf", "abc", "true", "auto", "#fff",
        "1,2", "2,25", "0.3em", "a4", "", "{page}", "{pgae}", "100xauto",
    ]

    /// The JSON value a CLI string stands for: a number, a boolean, else a string. (Numbers are
    /// spelled as Swift prints them, so a message that quotes one reads the same either way.)
    static func json(_ text: String) -> JSONValue {
        if let n = Double(text), n.isFinite { return .number(n) }
        if text == "true" { return .bool(true) }
        return .string(text)
    }

    /// What applying a value to a fresh target gives: the target as text, or the refusal.
    static func outcome<T>(_ option: OptionDefinition<T>, _ input: OptionInput, _ fresh: T) -> String {
        var target = fresh
        do {
            try option.apply(input, to: &target)
            return "ok \(target)"
        } catch let error as OptionError {
            return "error \(error.message)"
        } catch {
            return "thrown \(error)"
        }
    }

    static func walk<T>(_ table: [OptionDefinition<T>], fresh: T) -> [String] {
        var mismatches: [String] = []
        for option in table {
            for sample in samples {
                let text = outcome(option, .text(sample), fresh), json = outcome(option, .json(json(sample)), fresh)
                // JSON takes only a boolean where one is expected (a spec's "yes" is refused,
                // not guessed); the command line's words stay.
                let strictBoolean = option.schemaType == "boolean" && json.contains("(a JSON boolean)")
                if text != json && !strictBoolean { mismatches.append("\(option.name)=\(sample): text \(text) | json \(json)") }
                if text.hasPrefix("thrown") { mismatches.append("\(option.name)=\(sample): not an OptionError: \(text)") }
            }
        }
        return mismatches
    }

    static let card = try! CardSpec(width: 100, height: 100, background: .color(.white), blocks: [])

    @Test func textAndJSONAgreeInEveryTable() {
        #expect(Self.walk(OptionModel.all, fresh: BlockSettings()) == [])
        #expect(Self.walk(CardSpec.options, fresh: Self.card) == [])
        #expect(Self.walk(EncodeOptions.options, fresh: EncodeOptions()) == [])
        #expect(Self.walk(PageSetup.options, fresh: PageSetup(size: .a4)) == [])
        #expect(Self.walk(GoldenTolerance.definitions, fresh: GoldenTolerance()) == [])
        #expect(Self.walk(ServeSettings.options, fresh: ServeSettings()) == [])
        #expect(Self.walk(PixelLimit.options, fresh: PixelLimit()) == [])
        #expect(Self.walk(BatchRun.Settings.options, fresh: BatchRun.Settings()) == [])
        #expect(Self.walk(BlockSpec.placementOptions, fresh: try! BlockSpec(.stack(gap: 0, align: .center, blocks: []))) == [])
        #expect(Self.walk(ImageSettings.options, fresh: ImageSettings()) == [])
        #expect(Self.walk(StackSettings.options, fresh: StackSettings()) == [])
        #expect(Self.walk(FitSpec.options, fresh: FitSpec()) == [])
        #expect(Self.walk(LinkSchemes.options, fresh: LinkSchemes()) == [])
    }

    /// The table's refusal of `value` for the flag `flag` of `command`, or nil when the table
    /// accepts it (or the flag is not the table's option of that name).
    static func refusal(_ command: String, _ flag: String, _ value: String) -> String? {
        // The card's own options, under the CLI's names for them.
        if let key = ["margin": "padding", "canvas": "size", "scale": "scale"][flag] { return cardRefusal(key, value) }
        func check<T>(_ table: [OptionDefinition<T>], _ fresh: T) -> String?? {
            guard let option = table.named(flag) else { return nil }
            let result = outcome(option, .text(value), fresh)
            return .some(result.hasPrefix("error ") ? String(result.dropFirst(6)) : nil)
        }
        // The service's flags are its own table's (its max-pixels is not the CLI's).
        if command == "serve" { return check(ServeSettings.options, ServeSettings()) ?? nil }
        if let r = check(OptionModel.all, BlockSettings()) { return r }
        if let r = check(EncodeOptions.options, EncodeOptions()) { return r }
        if let r = check(PageSetup.options, PageSetup(size: .a4)) { return r }
        if let r = check(GoldenTolerance.definitions, GoldenTolerance()) { return r }
        if let r = check(PixelLimit.options, PixelLimit()) { return r }
        if command == "batch", let r = check(BatchRun.Settings.options, BatchRun.Settings()) { return r }
        return nil
    }

    /// The card table's refusal of a top-level key's value (a card's `size` and `padding` are
    /// its own, not the blocks' options of those names).
    static func cardRefusal(_ key: String, _ value: String) -> String? {
        let result = outcome(CardSpec.options.named(key)!, .text(value), card)
        return result.hasPrefix("error ") ? String(result.dropFirst(6)) : nil
    }

    @Test(arguments: ["render", "steps", "compare", "serve"])
    func flagsRefuseWhatTheTableRefuses(command: String) throws {
        let flags = try #require(try HostileNumberTests.options()[command])
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try HostileNumberTests.base(command, folder)
        var checked = 0
        for flag in flags {
            // Page options need pages (and a PDF).
            let paged = PageSetup.options.named(flag) != nil
            let call = paged ? ["render", "--text", "hi", "-o", "out.pdf"] + (flag == "page" ? [] : ["--page", "a4"]) : base
            for value in Self.samples {
                guard let message = Self.refusal(command, flag, value) else { continue }
                // An empty value as its own argument (`--flag=` is "missing" to the parser).
                let result = try CLI.run(call + (value.isEmpty ? ["--\(flag)", ""] : ["--\(flag)=\(value)"]),
                                         pinnedFonts: command != "serve", directory: folder, timeout: 20)
                #expect(result.status == 3 && result.stderr == "hlrender: error: --\(flag): \(message)\n",
                        "\(command) --\(flag)=\(value): \(result.stderr)")
                checked += 1
            }
        }
        #expect(checked > 20, "only \(checked) refusals checked for \(command)")
    }

    @Test func cardKeysRefuseWhatTheTableRefuses() throws {
        for option in OptionModel.all where !["text", "text-file", "steps", "steps-file"].contains(option.name) {
            let steps = OptionModel.scope(of: option.name) == .steps
            for value in Self.samples {
                guard var message = Self.refusal("card", option.name, value) else { continue }
                if option.schemaType == "boolean" { message = "must be true or false (a JSON boolean), not \(Self.json(value).typeName)" }
                // A span-only key is tried in a span: refused there with the same words.
                if OptionModel.scope(of: option.name) == .span {
                    let span: JSONValue = .object([("text", .string("a")), (option.name, Self.json(value))])
                    let block: JSONValue = .object([("type", .string("text")), ("spans", .array([span]))])
                    // A place inside the value (an effect list's `[0]`) joins the span key's path.
                    var expected = CardError("blocks[0].spans[0].\(option.name)", message)
                    var target = BlockSettings()
                    do { try option.apply(.text(value), to: &target) } catch let error as OptionError where !error.subpath.isEmpty {
                        expected = CardError("blocks[0].spans[0].\(option.name)\(error.subpath)", error.reason)
                    } catch {}
                    #expect(throws: expected, "\(option.name)=\(value)") {
                        _ = try CardSpec.parse(.object([("blocks", .array([block]))]), folder: ".", linkSchemes: LinkSchemes())
                    }
                    continue
                }
                let block: JSONValue = .object([("type", .string(steps ? "steps" : "text")),
                                                (steps ? "steps" : "text", steps ? .array([.string("a")]) : .string("a")),
                                                (option.name, Self.json(value))])
                let spec: JSONValue = .object([("blocks", .array([block]))])
                #expect(throws: CardError("blocks[0].\(option.name)", message), "\(option.name)=\(value)") {
                    _ = try CardSpec.parse(spec, folder: ".", linkSchemes: LinkSchemes())
                }
            }
        }
        for option in CardSpec.options {
            for value in Self.samples {
                guard let message = Self.cardRefusal(option.name, value) else { continue }
                #expect(throws: CardError(option.name, message), "\(option.name)=\(value)") {
                    _ = try CardSpec.parse(.object([(option.name, Self.json(value)), ("blocks", .array([]))]), folder: ".", linkSchemes: LinkSchemes())
                }
            }
        }
    }

    /// docs/COMMANDS.md is every command's help as `hlrender options --commands` prints it, and
    /// the README's table of commands is `hlrender options --command-table`.
    @Test func theCommandReferenceAndTheReadmeTableAreGenerated() throws {
        let commands = try CLI.run(["options", "--commands"], pinnedFonts: false)
        #expect(commands.status == 0, "\(commands.stderr)")
        let generated = String(decoding: commands.stdout, as: UTF8.self)
        let committed = try String(contentsOfFile: Fixtures.repo.appendingPathComponent("docs/COMMANDS.md").path, encoding: .utf8)
        #expect(committed == generated, "run: hlrender options --commands > docs/COMMANDS.md")
        for name in ["render", "steps", "card", "batch", "compare", "serve", "options"] {
            #expect(generated.contains("## hlrender \(name)\n"), "\(name) missing")
        }
        // Every flag of render's help is in the reference, e.g. these from several groups.
        for flag in ["--markup-file", "--paragraph-spacing", "--visible-lines", "--page-numbers", "--expect", "--dump-layout"] {
            #expect(generated.contains(flag), "\(flag) missing")
        }
        let table = try CLI.run(["options", "--command-table"], pinnedFonts: false)
        let readme = try String(contentsOfFile: Fixtures.repo.appendingPathComponent("README.md").path, encoding: .utf8)
        let start = readme.range(of: "<!-- commands: generated by `hlrender options --command-table` -->\n")!
        let end = readme.range(of: "<!-- end of commands -->", range: start.upperBound..<readme.endIndex)!
        #expect(String(readme[start.upperBound..<end.lowerBound]) == String(decoding: table.stdout, as: UTF8.self),
                "run: hlrender options --command-table, and put it in the README")
    }

    /// docs/OPTIONS.md is what `hlrender options` prints from the tables, and names every
    /// option of every table (so a new row reaches the reference or this fails).
    @Test func theCommittedReferenceIsTheGeneratedOne() throws {
        let result = try CLI.run(["options"], pinnedFonts: false)
        #expect(result.status == 0, "\(result.stderr)")
        let generated = String(decoding: result.stdout, as: UTF8.self)
        let committed = try String(contentsOfFile: Fixtures.repo.appendingPathComponent("docs/OPTIONS.md").path, encoding: .utf8)
        #expect(committed == generated, "run: hlrender options > docs/OPTIONS.md")
        let names = OptionModel.all.map(\.name) + CardSpec.options.map(\.name) + EncodeOptions.options.map(\.name)
            + PageSetup.options.map(\.name) + GoldenTolerance.definitions.map(\.name) + ServeSettings.options.map(\.name)
        for name in names {
            #expect(generated.contains("| `\(name)` |"), "\(name) missing from the reference")
        }
    }

    /// Issue 36: `background` is one row. The render flag, the card key and the library's page
    /// option read it, so they take and refuse the same colours with the same words.
    @Test func backgroundIsOneRowForFlagKeyAndPages() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (value, ok) in [("#ff000080", true), ("transparent", true), ("rebeccapurple", true), ("nope", false), ("#12", false)] {
            let flag = try CLI.run(["render", "--text", "x", "--background", value, "-o", dir.appendingPathComponent("f.png").path])
            let spec = dir.appendingPathComponent("c.json")
            try Data(#"{"size": "100x50", "background": "\#(value)", "blocks": []}"#.utf8).write(to: spec)
            let key = try CLI.run(["card", spec.path, "-o", dir.appendingPathComponent("c.png").path])
            #expect((flag.status == 0) == ok && (key.status == 0) == ok, "\(value): \(flag.stderr) \(key.stderr)")
            if !ok {
                let reason = { (stderr: String) in stderr.components(separatedBy: "background: ").last ?? "" }
                #expect(reason(flag.stderr) == reason(key.stderr) && reason(key.stderr).contains("is not a colour"), "\(flag.stderr) | \(key.stderr)")
            }
            if ok {
                #expect(throws: Never.self) { _ = try CardSpec.colorBackground(.text(value)) }
            } else {
                #expect(throws: OptionError.self) { _ = try CardSpec.colorBackground(.text(value)) }
            }
        }
        #expect(throws: OptionError.self) { _ = try CardSpec.colorBackground(.json(.object([("image", .string("x.png"))]))) }
    }
}
