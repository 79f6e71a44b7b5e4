// tapsim: one call into TapsimCLI, which parses the arguments and runs the command.
import Foundation
import TapsimCLI

exit(await Tapsim.run(Array(CommandLine.arguments.dropFirst())))
