// Start-up script of `./infx jshell`: every infx API package (never `internal`, never the command
// line's own io.infx.cli), imported once so a session can begin with the card's chain, e.g.
//   Sweep.singleNode(...).searchSpace(...).expand()
// and go on with the README's and docs' snippets as written. Public simple names are unique across
// these packages (ArchitectureTest); JShellStartupTest checks that this list is every API package and
// that every public type then resolves by its simple name.
import io.infx.core.*;
import io.infx.core.bind.*;
import io.infx.core.io.*;
import io.infx.core.json.*;
import io.infx.core.launch.*;
import io.infx.core.provenance.*;
import io.infx.core.python.*;
import io.infx.core.secret.*;
import io.infx.core.tree.*;
import io.infx.matrix.*;
import io.infx.matrix.changelog.*;
import io.infx.matrix.config.*;
import io.infx.matrix.runners.*;
import io.infx.client.*;
import io.infx.client.agentx.*;
import io.infx.client.chat.*;
import io.infx.client.dataset.*;
import io.infx.client.load.*;
import io.infx.client.metrics.*;
import io.infx.client.sim.*;
import io.infx.client.sse.*;
import io.infx.client.telemetry.*;
import io.infx.client.tokenizer.*;
import io.infx.results.*;
import io.infx.results.agentx.*;
import io.infx.results.evals.*;
import io.infx.results.power.*;
import io.infx.store.*;
import io.infx.store.mapping.*;
import io.infx.fleet.*;
import io.infx.fleet.bench.*;
import io.infx.fleet.container.*;
import io.infx.fleet.launch.*;
import io.infx.fleet.local.*;
import io.infx.fleet.recipe.*;
import io.infx.fleet.routing.*;
import io.infx.fleet.slurm.*;
import io.infx.fleet.spi.*;
import io.infx.report.*;
import io.infx.run.*;
import io.infx.dashboard.*;
import io.infx.testing.*;
import java.nio.file.*;
import java.time.*;
// a name JShell's DEFAULT start-up also brings on demand (java.util.stream.Collector): the infx type
// wins, the JDK one is written qualified
import io.infx.results.Collector;
