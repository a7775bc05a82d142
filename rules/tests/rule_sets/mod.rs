//! Every preset with no option and with each value of each of its options, as
//! `Variant::rules_with_texts` takes them: the rule sets that tests sweep.

use tafl_rules::Variant;

/// Every preset with no option, then with each value of each of its options. Panics on an
/// option it does not know, so that a new option is not left out of the sweeps unnoticed.
pub fn rule_sets() -> Vec<(Variant, Vec<&'static str>)> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        out.push((variant, vec![]));
        for key in variant.option_keys() {
            match *key {
                "king_armed" => out.push((variant, vec!["king_armed=false"])),
                "escape" => {
                    out.push((variant, vec!["escape=edge"]));
                    out.push((variant, vec!["escape=corner"]));
                }
                other => panic!("an option the test sweeps do not know: {other}"),
            }
        }
    }
    out
}
