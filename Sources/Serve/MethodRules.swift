import HTTPTypes
import Hummingbird

/// HTTP's rules for methods, which the router alone does not follow: HEAD (routed to the GET
/// handlers) answers the GET's headers without the body, and a known path asked with a method it does not take is 405 with `Allow`
/// (not 404).
struct MethodRules: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// The methods each route takes.
    static func allowed(_ path: String) -> [HTTPRequest.Method]? {
        switch path {
        case "/v1/card", "/v1/compare": return [.post]
        case "/healthz", "/readyz", "/metrics": return [.get, .head]
        default:
            let rest = path.dropFirst("/v1/templates/".count)
            return path.hasPrefix("/v1/templates/") && !rest.isEmpty && !rest.contains("/") ? [.get, .head] : nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let allowed = Self.allowed(path) else { return try await next(request, context) }
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
