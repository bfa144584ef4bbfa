/// Asks the server for results, and tries again a second later when a request fails,
/// up to three times.
struct SearchService: Sendable {
    /// What waits between attempts: a `ContinuousClock` in the app.
    let clock: any Clock<Duration>
    /// One request to the server.
    let fetch: @Sendable (String) async throws -> [String]

    /// The results for `query`, or none if every attempt failed.
    func search(_ query: String) async -> [String] {
        for attempt in 1...3 {
            if let results = try? await fetch(query) { return results }
            if attempt < 3 { try? await clock.sleep(for: .seconds(1)) }
        }
        return []
    }
}
