import Card
import Testing

@Suite struct CSVTests {
    @Test func quotedFieldsEscapesNewlinesAndUnicode() throws {
        let text = "\u{FEFF}id,title,note\r\n1,\"Hello, world\",plain\r\n2,\"She said \"\"hi\"\"\",\"two\nlines\"\n3,Привет 春,\"\"\n\n"
        let table = try CSV.parse(text)
        #expect(table.header == ["id", "title", "note"])
        #expect(table.rows.map(\.fields) == [["1", "Hello, world", "plain"], ["2", "She said \"hi\"", "two\nlines"],
                                            ["3", "Привет 春", ""]])
        #expect(table.rows.map(\.line) == [2, 3, 5])
    }

    @Test(arguments: [("a,\"b\n1,2\n", "line 1: a quoted field is not closed"),
                      ("a\"b,c\n1,2\n", "line 1: a quote inside an unquoted field"),
                      ("", "the CSV file is empty")])
    func badCSVIsAnErrorWithTheLine(text: String, message: String) {
        do {
            _ = try CSV.parse(text)
            Issue.record("no error")
        } catch let error as CardError {
            #expect(error.description.contains(message), "\(error)")
        } catch { Issue.record("\(error)") }
    }

    /// A quote that opens a field but is never closed, or closed with text after it, loses its
    /// own row: reading goes on at the next line, so the rows after it are not swallowed.
    @Test func aBrokenQuoteLosesOneRow() throws {
        let table = try CSV.parse("a,b\n1,hi\n2,\"unbalanced\n3,x\n4,y\n5,\"z\"w\n6,fine\n7,\"open\n")
        #expect(table.rows.map(\.fields) == [["1", "hi"], ["3", "x"], ["4", "y"], ["6", "fine"]])
        #expect(table.rows.map(\.line) == [2, 4, 5, 7])
        #expect(table.bad.map(\.line) == [3, 6, 8])
        #expect(table.bad.map(\.message) == ["text after a quoted field's closing quote (a quote inside a quoted field is written \"\")",
                                             "text after a quoted field's closing quote (a quote inside a quoted field is written \"\")",
                                             "a quoted field is not closed"])
    }

    /// A bad row is reported with its line; the rows around it are read as usual.
    @Test func badRowsAreSetAsideWithTheirLines() throws {
        let table = try CSV.parse("a,b\n1,2\n1,2,3\n3,x\"y\"\n4,\"ok, quoted\"\n5\n6,6\n")
        #expect(table.rows.map(\.fields) == [["1", "2"], ["4", "ok, quoted"], ["6", "6"]])
        #expect(table.rows.map(\.line) == [2, 5, 7])
        #expect(table.bad.map(\.line) == [3, 4, 6])
        #expect(table.bad.map(\.message) == ["3 fields, but the header names 2", "a quote inside an unquoted field (quote the whole field)",
                                             "1 fields, but the header names 2"])
    }
}
