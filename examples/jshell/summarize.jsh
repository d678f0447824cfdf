// Summarize: run the quickstart pipeline bounded to conc ≤ 2 (about 15 s on the simulator), then
// print the results table and write the HTML report.
// Run from anywhere:  examples/run jshell/summarize.jsh
// (In JShell a line that completes a statement ends it: continued calls end lines with a dot.)
import io.infx.run.*;
import io.infx.results.*;
import io.infx.report.*;
import java.nio.file.Path;
import java.util.List;

var options = RunOptions.builder().
    addConfigFiles(Path.of("examples/configs/quickstart.yaml")).
    selection(Selection.parse(List.of("--max-conc", "2"))).
    out(Path.of("infx-out/jshell-summarize")).
    build();
var outcome = BenchmarkRun.of(options).run(RunListener.NONE);

var loaded = AggregateRows.load(List.of(outcome.layout().collectedFile()));
System.out.print(Summary.of(loaded.rows().stream().map(AggregateRows.Sourced::row).toList()).toMarkdown());

var report = BenchmarkReport.builder().title("quickstart, conc ≤ 2").
    points(ReportPoints.read(outcome.layout().collectedFile()).points()).
    build();
System.out.println("report: " + report.writeTo(Path.of("infx-out/jshell-summarize/report")).html());
/exit
