import Dispatch
import Streams

/// The state of a sign-up form.
final class SignUpModel: ObservableObject {
    @Published var email = ""
    @Published var password = ""
    /// Whether the form may be submitted: a plausible email and a long enough password.
    @Published private(set) var canSubmit = false

    init(scheduler: DispatchQueue = .main) {
        $email.combineLatest($password)
            .map { email, password in email.contains("@") && password.count >= 8 }
            .removeDuplicates()
            .receive(on: scheduler)
            .assign(to: &$canSubmit)
    }
}
