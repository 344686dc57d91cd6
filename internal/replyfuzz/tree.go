package replyfuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// A reply is held as a tree of ordered objects (obj: its keys in the order
// sent, duplicates kept), arrays, and scalars, so that a mutation can write
// what encoding/json would never produce: a key twice, keys in case variants.

type kv struct {
	K string
	V any
}
type obj []kv

// node is a place in the tree: an object's entry or an array's element.
type node struct {
	o   obj
	a   []any
	i   int
	key string
}

func (n node) get() any {
	if n.o != nil {
		return n.o[n.i].V
	}
	return n.a[n.i]
}
func (n node) set(v any) {
	if n.o != nil {
		n.o[n.i].V = v
	} else {
		n.a[n.i] = v
	}
}

func nodes(v any) []node {
	var out []node
	var rec func(v any)
	rec = func(v any) {
		switch x := v.(type) {
		case obj:
			for i := range x {
				out = append(out, node{o: x, i: i, key: x[i].K})
				rec(x[i].V)
			}
		case []any:
			for i := range x {
				out = append(out, node{a: x, i: i})
				rec(x[i])
			}
		}
	}
	rec(v)
	return out
}

func walk(v any, f func(parent any, key string, val any)) {
	switch x := v.(type) {
	case obj:
		for _, e := range x {
			f(x, e.K, e.V)
			walk(e.V, f)
		}
	case []any:
		for _, e := range x {
			f(x, "", e)
			walk(e, f)
		}
	}
}

// removeEntry and insertEntry rebuild the object holding n (objects are slices).
func removeEntry(root any, n node) any {
	return replaceObj(root, n.o, append(append(obj{}, n.o[:n.i]...), n.o[n.i+1:]...))
}

func insertEntry(root any, n node, e kv, before bool) any {
	var out obj
	for i, x := range n.o {
		if i == n.i && before {
			out = append(out, e)
		}
		out = append(out, x)
		if i == n.i && !before {
			out = append(out, e)
		}
	}
	return replaceObj(root, n.o, out)
}

func replaceObj(root any, old, nw obj) any {
	same := func(v any) bool {
		o, ok := v.(obj)
		return ok && len(o) > 0 && len(old) > 0 && &o[0] == &old[0]
	}
	if same(root) {
		return nw
	}
	var rec func(v any)
	rec = func(v any) {
		switch x := v.(type) {
		case obj:
			for i := range x {
				if same(x[i].V) {
					x[i].V = nw
					return
				}
				rec(x[i].V)
			}
		case []any:
			for i := range x {
				if same(x[i]) {
					x[i] = nw
					return
				}
				rec(x[i])
			}
		}
	}
	rec(root)
	return root
}

func parse(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := parseValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func parseValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			o := obj{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(d)
				if err != nil {
					return nil, err
				}
				o = append(o, kv{kt.(string), v})
			}
			_, err := d.Token()
			return o, err
		case '[':
			a := []any{}
			for d.More() {
				v, err := parseValue(d)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := d.Token()
			return a, err
		}
	}
	return t, nil
}

func write(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case obj:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			ks, _ := json.Marshal(e.K)
			b.Write(ks)
			b.WriteByte(':')
			write(b, e.V)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		b.WriteString(string(x))
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	default:
		s, _ := json.Marshal(x)
		b.Write(s)
	}
}
