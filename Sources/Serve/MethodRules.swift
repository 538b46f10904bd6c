// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import HTTPTypes
import Hummingbird

/// HTTP's rules for methods, which the router alone does not follow: HEAD (routed to the GET
/// handlers) answers the GET's headers without the body, and a known path asked with a
/// method it does not take is 405 with `Allow` (not 404).
struct MethodRules: RouterMiddleware {
    typealias Context = ServeContext

    /// The methods the route at `path` takes (a `:name` segment of the table matches any one
    /// segment), nil for a path no route has.
    static func allowed(_ path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return Routes.table.first { route in
            let pattern = route.path.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == segments.count
                && zip(pattern, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }?.methods
    }

    /// A path as an error may quote it: at most 200 characters, control characters escaped (it
    /// is the client's own text, and logs and terminals read it).
    static func shown(_ path: String) -> String {
        let escaped = path.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        return path.unicodeScalars.count > 200 ? escaped + "..." : escaped
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // No route has this path: the same JSON error body as every other refusal (the
        // router's own 404 is empty).
        guard let allowed = Self.allowed(path) else { return HTTP.error(.notFound, "no such route: \(Self.shown(path))") }
        guard allowed.contains(request.method) else {
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return HTTP.error(.methodNotAllowed, "\(path) takes \(allow)", headers: [.allow: allow])
        }
        let response = try await next(request, context)
        guard request.method == .head else { return response }
        // The GET's headers, its length included, and no body.
        let length = response.body.contentLength ?? 0
        return Response(status: response.status, headers: response.headers, body: ResponseBody(contentLength: length) { _ in })
    }
}
#endif
