import Dispatch
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
    /// Asks the server to create an account; the publisher answers once, then finishes.
    func signUp(email: String, password: String) -> AnyPublisher<Account, any Error> {
        Just(email)
            .delay(for: .milliseconds(100), scheduler: DispatchQueue.global())
            .tryMap { email in
                guard email != "taken@example.com" else { throw SignUpError.emailTaken }
                return Account(email: email)
            }
            .eraseToAnyPublisher()
    }
}
