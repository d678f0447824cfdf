package io.infx.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactorTest {

  @Test
  void knownSecretValuesAreMaskedWherever_theyAppear() {
    Redactor r = Redactor.fromEnvironment(Map.of("HF_TOKEN", "hf_abcdefgh", "PATH", "/usr/bin",
        "DB_PASSWORD", "hunter22", "MY_API_KEY", "k-123456", "AWS_SECRET_ACCESS_KEY", "s3cr3t!!"))
        .with("sk-live-0001");
    assertThat(r.knownSecrets()).isEqualTo(5);
    assertThat(r.redact("token=hf_abcdefgh pw hunter22, key k-123456 in s3cr3t!!; sk-live-0001 /usr/bin"))
        .isEqualTo("token=*** pw ***, key *** in ***; *** /usr/bin");
  }

  @Test
  void secretNamesFollowTheRule() {
    for (String n : List.of("HF_TOKEN", "hf_token", "OPENAI_API_KEY", "MODAL_TOKEN_SECRET", "PGPASSWORD", "KEYRING")) {
      assertThat(Redactor.isSecretName(n)).as(n).isTrue();
    }
    for (String n : List.of("PATH", "HOME", "MODEL", "TP", "CONC")) {
      assertThat(Redactor.isSecretName(n)).as(n).isFalse();
    }
  }

  @Test
  void authorizationHeaderShapesAreMaskedEvenWhenTheKeyIsUnknown() {
    Redactor r = Redactor.shapesOnly();
    assertThat(r.redact("Authorization: Bearer abc.DEF-123\nHost: x"))
        .isEqualTo("Authorization: Bearer ***\nHost: x");
    assertThat(r.redact("{\"authorization\": \"Bearer sk-zzzz\", \"a\": 1}"))
        .isEqualTo("{\"authorization\": \"Bearer ***\", \"a\": 1}");
    assertThat(r.redact("{\\\"Authorization\\\":\\\"Bearer sk-zzzz\\\"}"))
        .isEqualTo("{\\\"Authorization\\\":\\\"Bearer ***\\\"}");
    assertThat(r.redact("proxy-authorization=Basic dXNlcjpwYXNz")).isEqualTo("proxy-authorization=Basic ***");
    assertThat(r.redact("x-api-key: abcd1234")).isEqualTo("x-api-key: ***");
    assertThat(r.redact("curl -H 'Authorization: Bearer tok12345'")).isEqualTo("curl -H 'Authorization: Bearer ***'");
    assertThat(r.redact("sent bearer tok12345 upstream")).isEqualTo("sent bearer *** upstream");
    assertThat(r.redact("the authorization failed")).isEqualTo("the authorization failed");
  }

  @Test
  void shortValuesAreNotMatchedByValueAndNothingElseChanges() {
    Redactor r = Redactor.of(List.of("abc", "")).with((String) null);
    assertThat(r.knownSecrets()).isZero();
    assertThat(r.redact("abc abc")).isEqualTo("abc abc");
    assertThat(r.redact(null)).isNull();
    assertThat(r.leaks("plain text")).isFalse();
    assertThat(Redactor.of(List.of("secret-1")).leaks("has secret-1")).isTrue();
  }

  @Test
  void aSecretContainingAnotherIsMaskedWhole() {
    Redactor r = Redactor.of(List.of("abcd", "abcdefgh"));
    assertThat(r.redact("x abcdefgh y abcd")).isEqualTo("x *** y ***");
  }
}
