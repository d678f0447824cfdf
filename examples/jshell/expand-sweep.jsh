// Expand a sweep: validate the example master config and list its single-node matrix rows.
// Run from anywhere:  examples/run jshell/expand-sweep.jsh
import io.infx.matrix.*;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;

var catalog = Catalog.load(Path.of("examples/configs/example-master.yaml"));
var runners = RunnerInventory.load(Path.of("examples/configs/runners.yaml"));
var matrix = Generator.fullSweep(catalog, runners,
    FullSweepOptions.builder().singleNode(true).multiNode(false).maxConc(16).build());

System.out.println(catalog.keys() + " → " + matrix.size() + " single-node rows with conc ≤ 16");
for (MatrixRow r : matrix) System.out.println("  " + r.expName() + "  tp=" + (r instanceof MatrixRow.OnOneNode one ? one.tp() : "-") + "  conc=" + r.conc() + "  runner=" + r.runner());

// The same rows as `infx generate` prints them:
System.out.println(matrix.get(0).toJson());
/exit
