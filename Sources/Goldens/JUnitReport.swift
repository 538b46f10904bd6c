import Typeset
import Support

/// JUnit XML as GitLab, Jenkins and GitHub's reporters read it: one `testsuite`, one
/// `testcase` per card; changed, new and missing are a `failure` whose type is the status's
/// word, a card that could not be rendered an `error`.
package enum JUnitReport {
    package static func xml(_ results: [GoldenResult], suite: String, seconds: Double) -> String {
        let failures = results.filter { $0.status.fails && $0.status != .error }.count
        let errors = results.filter { $0.status == .error }.count
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<testsuites name="hlrender" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(format(seconds))">"# + "\n"
        out += #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" skipped="0" time="\#(format(seconds))">"# + "\n"
        for result in results.sorted(by: { $0.row < $1.row }) {
            let open = #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.name))" time="\#(format(result.milliseconds / 1000))""#
            switch result.status {
            case .same, .within:
                out += open + "/>\n"
            case .changed, .new, .missing:
                out += open + ">\n"
                out += #"      <failure message="\#(escape(result.status.rawValue + ": " + result.message))" type="\#(result.status.rawValue)">"#
                out += escape("row \(result.row): \(result.status.rawValue): \(result.message)") + "</failure>\n    </testcase>\n"
            case .error:
                out += open + ">\n"
                out += #"      <error message="\#(escape(result.message))" type="error">"# + escape(result.message) + "</error>\n    </testcase>\n"
            }
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    static func format(_ seconds: Double) -> String {
        String((seconds * 1000).rounded() / 1000)
    }

    /// XML escaping for text and double-quoted attributes: line breaks and tabs as character
    /// references (attributes would fold them into spaces), characters XML 1.0 cannot hold as
    /// U+FFFD.
    static func escape(_ text: String) -> String { text.xml10Escaped }
}
