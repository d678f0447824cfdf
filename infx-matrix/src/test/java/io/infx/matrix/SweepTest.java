package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.config.SpecDecoding;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fluent DSL: declaring configs in code, filters, bounds, eval modes. */
class SweepTest {

  private static final ConfigIdentity LLAMA = ConfigIdentity.image("vllm/vllm-openai:v0.11.0")
      .model("meta-llama/Llama-3.1-70B-Instruct").modelPrefix("llama").precision("fp8").framework("vllm")
      .runner("h200");

  private static Sweep.SingleNode llama() {
    return Sweep.singleNode(LLAMA.withKey("llama-fp8-h100-vllm"));
  }

  private static ConfigIdentity identity(String precision, String framework, String runner) {
    return ConfigIdentity.image("i").model("m").modelPrefix("mdl").precision(precision).framework(framework)
        .runner(runner);
  }

  @Test
  void configsDeclaredInCodeExpandLikeYamlOnes() {
    Matrix m = llama().searchSpace(8192, 1024, Sweep.tp(8).conc(4, 64), Sweep.tp(4).ep(4).dpAttn()
            .spec(SpecDecoding.MTP).concList(16, 48))
        .sweep()
        .runners(Fixtures.runners())
        .evals(EvalMode.NONE)
        .expand();
    assertThat(m.rows()).extracting(r -> ((MatrixRow.OnOneNode) r).tp() + "@" + r.conc().get(0))
        .containsExactly("8@4", "8@8", "8@16", "8@32", "8@64", "4@16", "4@48");
    assertThat(m.get(5).fields()).containsEntry("ep", 4).containsEntry("dp-attn", true)
        .containsEntry("spec-decoding", "mtp").containsEntry("exp-name", "llama_8k1k");
    String yaml = """
        llama-fp8-h100-vllm:
          image: vllm/vllm-openai:v0.11.0
          model: meta-llama/Llama-3.1-70B-Instruct
          model-prefix: llama
          precision: fp8
          framework: vllm
          runner: h200
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 8192
              osl: 1024
              search-space:
              - {tp: 8, conc-start: 4, conc-end: 64}
              - {tp: 4, ep: 4, dp-attn: true, spec-decoding: mtp, conc-list: [16, 48]}
        """;
    assertThat(Sweep.of(Fixtures.catalog(yaml)).runners(Fixtures.runners()).evals(EvalMode.NONE).expand().toJson())
        .isEqualTo(m.toJson());
  }

  @Test
  void filtersBoundsAndModesChain() {
    Sweep base = Sweep.of(Fixtures.catalog(Fixtures.singleNode(8192, "{tp: 8, conc-start: 4, conc-end: 64}"),
        Fixtures.MULTI_NODE)).runners(Fixtures.runners());
    assertThat(base.expand().size()).isEqualTo(7);
    assertThat(base.singleNodeOnly().expand().size()).isEqualTo(5);
    assertThat(base.multiNodeOnly().expand().size()).isEqualTo(2);
    assertThat(base.precision("fp4").expand().size()).isEqualTo(2);
    assertThat(base.configKeys("ex-s*").maxConc(16).expand().rows()).extracting(MatrixRow::conc)
        .containsExactly(List.of(4), List.of(8), List.of(16));
    assertThat(base.evals(EvalMode.SUBSET).expand().rows()).allSatisfy(r -> assertThat(r.evalOnly()).isTrue());
    assertThat(base.trimConc().singleNodeOnly().expand().size()).isEqualTo(1);
    // the base is untouched by its specialisations
    assertThat(base.options().maxConc()).isEmpty();
  }

  @Test
  void invalidConfigsDeclaredInCodeAreReportedWithPointers() {
    Sweep.SingleNode invalid = llama().searchSpace(8192, 1024, Sweep.tp(8).dcp(3).concList(4));
    assertThatThrownBy(invalid::expand)
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations()).anySatisfy(v -> {
          assertThat(v.ruleId()).isEqualTo("V14.dcp-divides-tp");
          assertThat(v.pointer()).isEqualTo("/llama-fp8-h100-vllm/scenarios/fixed-seq-len/0/search-space/0");
        }));
    // the identity is required by the types; what remains is a null argument, named at once
    assertThatThrownBy(() -> ConfigIdentity.image("i").model(null))
        .isInstanceOf(NullPointerException.class).hasMessage("model");
    assertThatThrownBy(() -> Sweep.singleNode(null))
        .isInstanceOf(NullPointerException.class).hasMessage("identity");
    // an AgentX-only field in a fixed-seq-len block fails where it is declared, naming the entry
    assertThatThrownBy(() -> llama().searchSpace(1024, 1024, Sweep.tp(8).noOffload().concList(4)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("tp(8).noOffload().concList(4)");
  }

  @Test
  void agenticAndMultiNodeDeclarations() {
    Matrix agentic = Sweep.singleNode(identity("fp4", "vllm", "cluster:b200-nscale").withKey("ag"))
            .agentic(0.8, Sweep.tp(4).dramOffload("lmcache").concList(2, 32), Sweep.tp(8).noOffload().concList(16))
        .sweep().runners(Fixtures.runners()).evals(EvalMode.NONE).expand();
    assertThat(agentic.rows()).extracting(r -> r.fields().get("total-cpu-dram-gb")).containsExactly(865, 865, 0);

    Matrix multi = Sweep.multiNode(identity("fp4", "dynamo-trt", "cluster:gb200-nv").withKey("mn")).disagg("nixl")
            .searchSpace(8192, 1024, Sweep.disaggregated(Sweep.worker(1, 4, 4, true), Sweep.worker(2, 8, 8, false))
                .concList(16, 64))
        .sweep().runners(Fixtures.runners()).expand();
    assertThat(multi.get(0).fields()).containsEntry("node-count", 5).containsEntry("eval-conc", 64)
        .containsEntry("kv-p2p-transfer", "nixl");
  }

  @Test
  void configsWithoutKeysGetConventionalKeys() {
    var a = llama().searchSpace(1024, 1024, Sweep.tp(8).concList(4)).build();
    Catalog c = Sweep.of(a, a).catalog();
    assertThat(c.keys()).containsExactly("llama-fp8-h200-vllm", "llama-fp8-h200-vllm-2");
    assertThat(LLAMA.key()).isEqualTo("llama-fp8-h200-vllm");
    assertThat(identity("fp4", "vllm", "cluster:b200-nscale").key()).isEqualTo("mdl-fp4-b200-nscale-vllm");
  }

  @Test
  void theCardsChainCompilesAndExpands() {
    Matrix m = Sweep.singleNode(LLAMA).searchSpace(1024, 1024, Sweep.tp(8).conc(4, 16)).expand();
    assertThat(m.rows()).extracting(MatrixRow::conc).containsExactly(List.of(4), List.of(8), List.of(16));
    assertThat(m.rows()).allSatisfy(r -> assertThat(r.fields()).containsEntry("exp-name", "llama_1k1k")
        .containsEntry("image", "vllm/vllm-openai:v0.11.0").containsEntry("runner", "h200"));
  }

  @Test
  void addingToABaseDeclarationNeverChangesItOrAnEarlierResult() {
    Sweep.SingleNode base = Sweep.singleNode(LLAMA).searchSpace(1024, 1024, Sweep.tp(8).conc(4, 8));
    Matrix before = base.expand();
    String beforeJson = before.toJson();

    Sweep.SingleNode longer = base.searchSpace(8192, 1024, Sweep.tp(4).concList(2));
    Sweep.SingleNode routed = base.router("sglang-router", "0.2.1");

    assertThat(longer).isNotSameAs(base).isNotEqualTo(base);
    assertThat(routed).isNotEqualTo(base);
    assertThat(base.build().fixedSeqLen()).hasSize(1);
    assertThat(longer.build().fixedSeqLen()).hasSize(2);
    assertThat(before.toJson()).isEqualTo(beforeJson);
    assertThat(base.expand().toJson()).isEqualTo(beforeJson);
    assertThat(longer.expand().size()).isEqualTo(before.size() + 1);
    // equal declarations are equal values, whatever path built them
    assertThat(Sweep.singleNode(LLAMA).searchSpace(1024, 1024, Sweep.tp(8).conc(4, 8))).isEqualTo(base)
        .hasSameHashCodeAs(base);

    Sweep.Entry tp8 = Sweep.tp(8);
    Sweep.Entry withEp = tp8.ep(8);
    assertThat(tp8).hasToString("tp(8)");
    assertThat(withEp).hasToString("tp(8).ep(8)");

    Sweep.MultiEntry pools = Sweep.aggregated(8, 8, false, 2);
    Sweep.MultiEntry ranged = pools.conc(4, 16);
    assertThat(pools).isNotEqualTo(ranged).hasToString("aggregated(8, 8, false, 2)");
  }

  @Test
  void declarationsPrintAsTheChainThatMakesThem() {
    Sweep.SingleNode d = Sweep.singleNode(LLAMA).searchSpace(8192, 1024, Sweep.tp(8).conc(4, 64),
        Sweep.tp(4).ep(4).dpAttn().spec(SpecDecoding.MTP).concList(16, 48));
    assertThat(d).hasToString("Sweep.singleNode(llama-fp8-h200-vllm{image=vllm/vllm-openai:v0.11.0, "
        + "model=meta-llama/Llama-3.1-70B-Instruct, model-prefix=llama, precision=fp8, framework=vllm, "
        + "runner=h200}).searchSpace(8192, 1024, tp(8).conc(4, 64), tp(4).ep(4).dpAttn().spec(MTP).concList(16, 48))");
    assertThat(Sweep.multiNode(identity("fp4", "dynamo-trt", "cluster:gb200-nv")).disagg("nixl")
            .searchSpace(8192, 1024, Sweep.disaggregated(Sweep.worker(1, 4, 4, true), Sweep.worker(2, 8, 8, false))
                .concList(16, 64)).toString())
        .endsWith(".disagg(nixl).searchSpace(8192, 1024, disaggregated(prefill 1×tp4/ep4/dp-attn, "
            + "decode 2×tp8/ep8).concList(16, 64))");
    assertThat(d.sweep().toString()).startsWith("Sweep{configs=[llama-fp8-h200-vllm], runner-labels=0, options=");
  }

  // Expected values come from running the reference generator (shared/reference/matrix, full-sweep)
  // on the equivalent YAML: it accepts tp 0, a negative isl, empty identity strings and an empty
  // search-space, so the DSL does too (docs/decisions.md, "Kept as the reference does").
  @Test
  void valuesTheReferenceAcceptsExpandAsItDoes() {
    Matrix tp0 = llama().searchSpace(1024, 1024, Sweep.tp(0).conc(1, 8)).sweep().evals(EvalMode.NONE).expand();
    assertThat(tp0.rows()).extracting(r -> ((MatrixRow.OnOneNode) r).tp()).containsExactly(0, 0, 0, 0); // conc 1, 2, 4, 8

    Matrix negativeIsl = llama().searchSpace(-5, 1024, Sweep.tp(8).concList(1)).sweep().evals(EvalMode.NONE)
        .expand();
    assertThat(negativeIsl.get(0).fields()).containsEntry("isl", -5).containsEntry("max-model-len", 1275)
        .containsEntry("exp-name", "llama_-5_1024");

    ConfigIdentity blank = ConfigIdentity.image("").model("").modelPrefix("").precision("").framework("").runner("");
    assertThat(blank.key()).isEqualTo("---");
    Matrix blankRows = Sweep.singleNode(blank).searchSpace(1024, 1024, Sweep.tp(8).concList(1)).sweep()
        .evals(EvalMode.NONE).expand();
    assertThat(blankRows.get(0).fields()).containsEntry("image", "").containsEntry("model", "")
        .containsEntry("runner", "").containsEntry("exp-name", "_1k1k");

    assertThat(llama().searchSpace(128, 16).expand().size()).isZero();
    String emptySearchSpace = """
        llama-fp8-h100-vllm:
          image: i
          model: m
          model-prefix: llama
          precision: fp8
          framework: vllm
          runner: h200
          multinode: false
          scenarios:
            fixed-seq-len:
            - {isl: 128, osl: 16, search-space: []}
        """;
    assertThat(Sweep.of(Fixtures.catalog(emptySearchSpace)).expand().size()).isZero();
  }

  @Test
  void configKeysFollowTheSameRuleInCodeAsInYaml() {
    assertThat(llama().key("bad key!").searchSpace(1024, 1024, Sweep.tp(8).concList(1)).expand().size())
        .isEqualTo(1);
    assertThatThrownBy(() -> llama().key("bad*key").searchSpace(1024, 1024, Sweep.tp(8).concList(1)).expand())
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .singleElement().satisfies(v -> {
              assertThat(v.ruleId()).isEqualTo("V3.key-wildcard");
              assertThat(v.message()).contains("Wildcard '*' is not allowed in master config keys: 'bad*key'");
            }));
    assertThatThrownBy(() -> llama().key("a?b").searchSpace(1024, 1024, Sweep.tp(8).concList(1)).expand())
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(v -> v.ruleId()).containsExactly("Q7.key-glob"));
  }

  /** The violation of a DSL mistake: its rule id, pointer and location (this file, the line of the call). */
  private static Violation mistake(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(t).isInstanceOf(ValidationException.class);
    List<Violation> v = ((ValidationException) t).violations();
    assertThat(v).hasSize(1);
    return v.get(0);
  }

  private static int line() {
    return StackWalker.getInstance().walk(f -> f.skip(1).findFirst()).orElseThrow().getLineNumber();
  }

  private static final String HERE = "io/infx/matrix/SweepTest.java";

  @Test
  void filterMistakesAreLocatedValidationErrorsAtTheCall() {
    Sweep base = Sweep.of(Fixtures.catalog(Fixtures.singleNode(8192, "{tp: 8, conc-start: 4, conc-end: 64}")));

    int at = line(); Violation seq = mistake(() -> base.seqLens("1k1k", "2k2k"));
    assertThat(seq.ruleId()).isEqualTo("V52.seq-lens");
    assertThat(seq.pointer()).isEqualTo("/seqLens/1");
    assertThat(seq.expected()).contains("1k1k or 8k1k");
    assertThat(seq.actual()).contains("'2k2k'");
    assertThat(seq.location()).contains(new Location(HERE, at, 1));
    assertThat(seq.render()).startsWith(HERE + ":" + at + ":1: [V52.seq-lens] /seqLens/1: unknown sequence family");

    at = line(); Violation step = mistake(() -> base.stepSize(1));
    assertThat(step.ruleId()).isEqualTo("V47.step-size");
    assertThat(step.pointer()).isEqualTo("/stepSize");
    assertThat(step.actual()).contains("1");
    assertThat(step.location()).contains(new Location(HERE, at, 1));

    // min > max: whichever call comes second is the mistake
    Sweep min8 = base.minConc(8);
    at = line(); Violation bounds = mistake(() -> min8.maxConc(4));
    assertThat(bounds.ruleId()).isEqualTo("V48.conc-bounds");
    assertThat(bounds.location()).contains(new Location(HERE, at, 1));
    assertThat(mistake(() -> base.maxConc(4).minConc(8)).ruleId()).isEqualTo("V48.conc-bounds");

    // a bound below 1 would keep no fixed-seq-len point: refused in code (the command line keeps the reference's skip)
    at = line(); Violation zero = mistake(() -> base.maxConc(0));
    assertThat(zero.ruleId()).isEqualTo("sweep.bound");
    assertThat(zero.pointer()).isEqualTo("/maxConc");
    assertThat(zero.expected()).contains("≥ 1");
    assertThat(zero.location()).contains(new Location(HERE, at, 1));
    assertThat(mistake(() -> base.minConc(0)).pointer()).isEqualTo("/minConc");
    assertThat(mistake(() -> base.maxTp(-1)).pointer()).isEqualTo("/maxTp");
    assertThat(mistake(() -> base.maxEp(0)).pointer()).isEqualTo("/maxEp");

    // null: the array or one element, named
    at = line(); Violation nullArray = mistake(() -> base.modelPrefix((String[]) null));
    assertThat(nullArray.ruleId()).isEqualTo("sweep.null");
    assertThat(nullArray.pointer()).isEqualTo("/modelPrefix");
    assertThat(nullArray.location()).contains(new Location(HERE, at, 1));
    assertThat(mistake(() -> base.modelPrefix("llama", null)).pointer()).isEqualTo("/modelPrefix/1");
    assertThat(mistake(() -> base.evals(null)).pointer()).isEqualTo("/evals");
    assertThat(mistake(() -> base.runnerNodeFilter(null)).pointer()).isEqualTo("/runnerNodeFilter");
    assertThat(mistake(() -> base.configKeys((String) null)).pointer()).isEqualTo("/configKeys/0");

    // smoke and trim conflict in either order
    assertThat(mistake(() -> base.trimConc().evals(EvalMode.SMOKE)).ruleId()).isEqualTo("V50.smoke-trim");
    assertThat(mistake(() -> base.evals(EvalMode.SMOKE).trimConc()).ruleId()).isEqualTo("V50.smoke-trim");

    // every mistake is a usage error (exit status 2)
    assertThatThrownBy(() -> base.stepSize(0)).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.kind()).isEqualTo(io.infx.core.ErrorKind.USAGE));
    // and the base is untouched by them
    assertThat(base.options()).isEqualTo(FullSweepOptions.defaults());
  }

  @Test
  void runnerTypesAreCheckedAgainstTheRunnerFileAtExpansionLocatedAtTheirCall() {
    Sweep base = Sweep.of(Fixtures.catalog(Fixtures.singleNode(8192, "{tp: 8, conc-start: 4, conc-end: 64}")));
    int at = line(); Sweep typed = base.runnerType("h200");
    // no runner file: the labels cannot be checked (before, the error listed an empty set of valid types)
    Violation noFile = mistake(typed::expand);
    assertThat(noFile.ruleId()).isEqualTo("V51.runner-type");
    assertThat(noFile.message()).contains("runnerType(h200)").contains(".runners(");
    assertThat(noFile.location()).contains(new Location(HERE, at, 1));
    assertThatThrownBy(typed::expand).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.kind()).isEqualTo(io.infx.core.ErrorKind.SELECTION));
    // with the runner file, in either order: a known label expands, an unknown one names the valid ones
    assertThat(typed.runners(Fixtures.runners()).expand().size())
        .isEqualTo(base.runners(Fixtures.runners()).runnerType("h200").expand().size()).isPositive();
    at = line(); Sweep unknown = base.runners(Fixtures.runners()).runnerType("h999");
    Violation bad = mistake(unknown::expand);
    assertThat(bad.message()).startsWith("Invalid runner type(s): {'h999'}. Valid runner types are: ");
    assertThat(bad.location()).contains(new Location(HERE, at, 1));
  }

  @Test
  void declaringTheSameKeyTwiceIsLocated() {
    Sweep.SingleNode a = llama().searchSpace(1024, 1024, Sweep.tp(8).concList(4));
    int at = line(); Violation twice = mistake(() -> Sweep.of(a, a));
    assertThat(twice.ruleId()).isEqualTo("sweep.duplicate-key");
    assertThat(twice.pointer()).isEqualTo("/configs/1");
    assertThat(twice.location()).contains(new Location(HERE, at, 1));
  }
}
