import Streams

/// An account the server created.
struct Account: Equatable, Sendable {
    let email: String
}

/// Why the server refused to create an account.
enum SignUpError: Error, Equatable {
    case emailTaken
}

/// The server, as the app sees it: a stand-in that answers after 100 milliseconds.
struct SignUpService: Sendable {
    /// Asks the server to create an account.
    func createAccount(email: String, password: String) async throws -> Account {
        try await Task.sleep(for: .milliseconds(100))
        guard email != "taken@example.com" else { throw SignUpError.emailTaken }
        return Account(email: email)
    }

    /// Asks the server to create an account, once per subscriber; the publisher answers

    /// once, then finishes.
    func signUp(email: String, password: String) -> AnyPublisher<Account, any Error> {
        Deferred {
            Future { try await createAccount(email: email, password: password) }
        }
        .eraseToAnyPublisher()
    }
}
