import Foundation
import Streams

let service = SignUpService()
let model = SignUpModel(service: service)
model.email = "ada@example.com"
model.password = "correct horse"

for await canSubmit in model.$canSubmit.values where canSubmit {
    print("can submit:", canSubmit)
    break
}
model.submitTapped.send()
for await status in model.$status.values where !status.isEmpty {
    print("status:", status)
    break
}

let second = Future {
    try await service.createAccount(email: "taken@example.com", password: "hunter2hunter2")
}
do {
    let account = try await second.value
    print("second account:", account.email)
} catch {
    print("second sign-up failed:", error)
}

let (notices, server) = AsyncStream.makeStream(of: String.self)
server.yield("welcome ada@example.com")
server.yield("maintenance at 02:00")
server.yield("welcome grace@example.com")
server.finish()
let welcomed = notices.publisher
    .filter { $0.hasPrefix("welcome ") }
    .map { $0.dropFirst("welcome ".count) }
for await email in welcomed.values {
    print("welcomed:", email)
}
