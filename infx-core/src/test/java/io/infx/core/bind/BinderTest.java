package io.infx.core.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.core.InfxStyle;
import io.infx.core.Location;
import io.infx.core.Violation;
import io.infx.core.tree.Trees;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;
import org.junit.jupiter.api.Test;

class BinderTest {

  /** Test enum with one explicit wire value. */
  public enum Mode {
    FAST,
    @Wire("slow_path")
    SLOW
  }

  /** A record value type. */
  public record Port(String name, int number, Optional<Mode> mode) {}

  private static <T> Bound<T> bind(String yaml, Class<T> type) {
    return Binder.strict().bind(Trees.parseYaml("b.yaml", yaml), type);
  }

  private static List<String> messages(Bound<?> b) {
    return b.violations().stream().map(Violation::render).toList();
  }

  @Test
  void bindsImmutablesTypesWithDefaultsOptionalsListsMapsAndKeyOrder() {
    Bound<Sample> b = bind("""
        name: a
        ports:
        - {name: http, number: 80, mode: slow_path}
        tags: {x: '1'}
        ratio: 0.25
        """, Sample.class);

    assertThat(b.ok()).as(messages(b).toString()).isTrue();
    Sample s = b.value().orElseThrow();
    assertThat(s.name()).isEqualTo("a");
    assertThat(s.replicas()).isEqualTo(1);
    assertThat(s.ports()).containsExactly(new Port("http", 80, Optional.of(Mode.SLOW)));
    assertThat(s.tags()).containsExactly(Map.entry("x", "1"));
    assertThat(s.ratio()).contains(new BigDecimal("0.25"));
    assertThat(s.keys()).containsExactly("name", "ports", "tags", "ratio");
    assertThat(s.origin()).contains(new Origin("", new Location("b.yaml", 1, 1)));
  }

  @Test
  void reportsEveryProblemAtOnceWithLocationsAndHints() {
    Bound<Sample> b = bind("""
        nmae: a
        replica_count: 2
        replicas: "3"
        ports:
        - {name: 7, number: x, mode: medium}
        - {number: 1, extra: true}
        """, Sample.class);

    assertThat(b.ok()).isFalse();
    assertThat(messages(b)).containsExactly(
        "b.yaml:1:1: [schema.unknown-key] /nmae: Extra inputs are not permitted: unknown key 'nmae'; did you mean 'name'?",
        "b.yaml:1:1: [schema.required] /name: Field required: 'name' is missing",
        "b.yaml:2:1: [schema.unknown-key] /replica_count: Extra inputs are not permitted: unknown key 'replica_count'",
        "b.yaml:3:11: [schema.type] /replicas: Input should be a valid integer (actual '3' (string))",
        "b.yaml:5:10: [schema.type] /ports/0/name: Input should be a valid string (actual 7 (integer))",
        "b.yaml:5:21: [schema.type] /ports/0/number: Input should be a valid integer (actual 'x' (string))",
        "b.yaml:5:30: [schema.type] /ports/0/mode: Input should be 'fast' or 'slow_path' (actual 'medium' (string))",
        "b.yaml:6:3: [schema.required] /ports/1/name: Field required: 'name' is missing",
        "b.yaml:6:15: [schema.unknown-key] /ports/1/extra: Extra inputs are not permitted: unknown key 'extra'");
  }

  @Test
  void snakeCaseKeysGetTheKebabCaseSpelling() {
    Bound<Sample> b = bind("name: a\nmax_len: 3\n", Sample.class);
    assertThat(messages(b)).containsExactly("b.yaml:2:1: [schema.unknown-key] /max_len: Extra inputs are not "
        + "permitted: unknown key 'max_len'; keys are kebab-case: write 'max-len' instead of 'max_len'");
    Bound<Sample> both = bind("name: a\nmax-len: 3\nmax_len: 3\n", Sample.class);
    assertThat(messages(both).get(0)).contains("it repeats 'max-len' in snake_case");
  }

  @Test
  void beanValidationConstraintsAndSelfChecksCarryRuleIdsAndLocations() {
    Bound<Sample> b = bind("""
        name: ''
        replicas: 0
        max-len: 5
        """, Sample.class);
    assertThat(messages(b)).containsExactly(
        "b.yaml:1:7: [sample.name] /name: String should have at least 1 character (actual '')",
        "b.yaml:2:11: [sample.replicas] /replicas: Input should be greater than 0 (actual 0)",
        "b.yaml:3:10: [sample.max-len] /max-len: max-len 5 exceeds replicas × 4 = 0 {literally}");
  }

  @Test
  void nullIsAbsentOnlyWhereAllowed() {
    assertThat(bind("name: a\nratio: null\nports: ~\n", Sample.class).ok()).isTrue();
    assertThat(messages(bind("name: a\nreplicas: null\n", Sample.class)))
        .containsExactly("b.yaml:2:11: [schema.type] /replicas: Input should be a valid integer (actual null)");
  }

  @Test
  void customRuleIdsReplaceTheDefaults() {
    Binder binder = Binder.strict().withRuleIds(new Binder.RuleIds("V1", "V5", "Q2", "X"));
    Bound<Sample> b = binder.bind(Trees.parseYaml("b.yaml", "what: 1\n"), Sample.class);
    assertThat(b.violations()).extracting(Violation::ruleId).containsExactly("V1", "V5");
  }

  @Test
  void validatesGraphsBuiltInCode() {
    Sample s = ImmutableSample.builder().name("").replicas(1).build();
    assertThat(Constraints.validateGraph(s)).extracting(Violation::render)
        .containsExactly("[sample.name] /name: String should have at least 1 character (actual '')");
  }

  @Test
  void wireValuesOfEnums() {
    assertThat(Binder.wireValue(Mode.SLOW)).isEqualTo("slow_path");
    assertThat(Binder.wireValue(Mode.FAST)).isEqualTo("fast");
  }

  /** Test value type. */
  @Value.Immutable
  @InfxStyle
  @SelfChecked
  public abstract static class Sample implements SelfChecking {
    @Rule("sample.name")
    @Size(min = 1, message = "String should have at least 1 character")
    public abstract String name();

    @Rule("sample.replicas")
    @Positive(message = "Input should be greater than 0")
    @Value.Default
    public int replicas() {
      return 1;
    }

    public abstract Optional<Integer> maxLen();

    @AcceptsNull
    public abstract List<Port> ports();

    public abstract Map<String, String> tags();

    public abstract Optional<BigDecimal> ratio();

    @KeyOrder
    @Value.Auxiliary
    public abstract List<String> keys();

    @KeepOrigin
    @Value.Auxiliary
    public abstract Optional<Origin> origin();

    @Override
    public void check(Checks checks) {
      if (maxLen().isPresent() && maxLen().get() > replicas() * 4) {
        checks.fail("sample.max-len", "max-len", "max-len " + maxLen().get() + " exceeds replicas × 4 = "
            + replicas() * 4 + " {literally}");
      }
    }
  }

  /** A record whose {@code host} is required unless {@code socket} is given; keeps where {@code socket} was read. */
  public record Endpoint(@RequiredUnless("socket") Optional<String> host, Optional<String> socket,
      @KeepOrigin("socket") Optional<Origin> socketOrigin, @KeepOrigin Optional<Origin> origin) {}

  @Test
  void requiredUnlessASiblingIsPresentAndTheOriginOfOneKeysValue() {
    Bound<Endpoint> hostOnly = bind("{host: a}\n", Endpoint.class);
    assertThat(hostOnly.value().orElseThrow().socketOrigin()).isEmpty();
    Endpoint viaSocket = bind("socket:   /run/s\n", Endpoint.class).value().orElseThrow();
    assertThat(viaSocket.host()).isEmpty();
    assertThat(viaSocket.socketOrigin()).contains(new Origin("/socket", new Location("b.yaml", 1, 11)));
    assertThat(viaSocket.origin()).contains(new Origin("", new Location("b.yaml", 1, 1)));

    // neither: the ordinary "Field required", in the same pass as other field errors
    assertThat(messages(bind("{socket_: 1}\n", Endpoint.class))).containsExactly(
        "b.yaml:1:1: [schema.required] /host: Field required: 'host' is missing",
        "b.yaml:1:2: [schema.unknown-key] /socket_: Extra inputs are not permitted: unknown key 'socket_'; did you mean 'socket'?");
    // an explicit null is not "absent" for a conditionally required attribute
    assertThat(messages(bind("{host: null}\n", Endpoint.class))).containsExactly(
        "b.yaml:1:8: [schema.type] /host: Input should be a valid string (actual null)");
  }
}
