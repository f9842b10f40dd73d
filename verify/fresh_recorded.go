package verify

// The recorded verdicts (regression guards) of the fresh-context rows and
// their explanations, from the committed runs (figures/claims.md).
var freshRecorded = map[string]map[string]Verdict{
	"1a": both(Holds), "1b": both(Holds), "1c": both(Holds), "1d": both(Holds),
	"2a": both(DoesNotHold), "2b": both(DoesNotHold), "2c": both(DoesNotHold),
	"8a": both(DoesNotHold),
}

var freshWhy = map[string]string{
	"1a": "to be measured", "1b": "to be measured", "1c": "to be measured", "1d": "to be measured",
	"2a": "to be measured", "2b": "to be measured", "2c": "to be measured",
	"8a": "to be measured",
}
