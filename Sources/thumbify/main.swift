import Foundation
import ThumbifyCLI

exit(await ThumbifyCommandLine.run(Array(CommandLine.arguments.dropFirst())))
