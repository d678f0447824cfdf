// Start-up script of `./infx jshell`: the infx entry packages, imported once so a session can begin
// with the card's chain, e.g.
//   Sweep.of(...).searchSpace(...).expand()
// Only API packages (never `internal`). Names that exist in two of them (none today) must be
// written qualified.
import io.infx.core.*;
import io.infx.matrix.*;
import io.infx.matrix.config.*;
import io.infx.matrix.runners.*;
import io.infx.client.*;
import io.infx.client.sim.*;
import io.infx.results.*;
import io.infx.fleet.*;
import io.infx.run.*;
import java.nio.file.*;
import java.time.*;
