package policy

import (
	"slices"
	"strings"
)

// typedParams returns the parameters of an activity of type typ with the
// documented struct-typed ones (the Spark packages) built as records of
// their documented structs, so that a field the request left out reads as
// its type's zero value, as the real service's does, rather than failing.
// A parameter of that kind the request left out reads as an empty struct
// or list. The parameters of other types are returned as they are.
func (c converter) typedParams(typ string, params map[string]any) (map[string]any, error) {
	var out map[string]any
	for name, decl := range documentedParamTypes {
		if structOf(decl) == "" {
			continue
		}
		if types, _ := DocumentedParam(name); !slices.Contains(types, typ) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(params)+1)
			for k, v := range params {
				out[k] = v
			}
		}
		// lightning_receive arrives as lightningReceive: either fills it,
		// and a policy reading either spelling reads the same record.
		camel := camelCase(name)
		v, ok := params[name]
		if !ok {
			v, ok = params[camel]
		}
		if !ok || v == nil {
			if strings.HasPrefix(decl, "list<") {
				v = []any{}
			} else {
				v = map[string]any{}
			}
		}
		// ActivityFor keeps each camelCase key beside its snake_case
		// spelling; the record answers both (structField).
		val, err := converter{e: c.e, lenient: true}.value(decl, v, "activity.params."+name)
		if err != nil {
			return nil, err
		}
		out[name] = val
		if _, given := params[camel]; given {
			out[camel] = val
		}
	}
	if out == nil {
		return params, nil
	}
	return out, nil
}
