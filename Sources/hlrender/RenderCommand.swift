import ArgumentParser
import Foundation
import Render
import Typeset

extension Alignment: ExpressibleByArgument {}
extension BaseDirection: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out text and render it to PNG or PDF.",
        discussion: "Exit status: 0 success, 3 bad input or failure.")

    @OptionGroup var text: TextOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let format = try output.resolvedFormat()
        try output.checkWritable()
        let input = try InputText.read(text: text.text, file: text.textFile)
        let (layout, style) = try text.typeset(input)
        var options = try output.renderOptions(format: format)
        options.textColor = try text.textColor()
        _ = style
        let geometry = try Renderer.geometry(for: layout, options: options)
        if let dump = output.dumpLayout {
            try OutputFile.write(LayoutDump(layout: layout, geometry: geometry, scale: options.scale).encoded(), to: dump)
        }
        if let path = output.output {
            try OutputFile.write(Renderer.render(layout, options: options), to: path)
        }
    }
}
