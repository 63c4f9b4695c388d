package interp

import (
	"reflect"
	"strconv"
)

// runtimePrint appends v as Go's runtime prints an operand of print and
// println (runtime/print.go): floats in their shortest form, pointers,
// channels, maps and functions as hexadecimal addresses, slices as
// [len/cap]address, interfaces as (type,data) addresses; iface says the
// operand's static type is an interface.
func runtimePrint(b []byte, v reflect.Value, iface bool) []byte {
	if iface {
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if v.IsValid() && v.CanInterface() {
			if vi, ok := v.Interface().(valueInterface); ok {
				v = vi.value
			}
		}
		if !v.IsValid() {
			return append(b, "(0x0,0x0)"...)
		}
		b = append(b, '(')
		b = appendHex(b, uint64(reflect.ValueOf(v.Type()).Pointer()))
		b = append(b, ',')
		if v.CanAddr() {
			b = appendHex(b, uint64(v.Addr().Pointer()))
		} else {
			b = appendHex(b, uint64(reflect.ValueOf(&v).Pointer()))
		}
		return append(b, ')')
	}
	for v.Kind() == reflect.Interface {
		if v.IsNil() {
			return append(b, "(0x0,0x0)"...)
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case reflect.Complex64:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 64)...)
	case reflect.Complex128:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 128)...)
	case reflect.String:
		return append(b, v.String()...)
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return appendHex(b, uint64(v.Pointer()))
	case reflect.Slice:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(v.Len()), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(v.Cap()), 10)
		b = append(b, ']')
		return appendHex(b, uint64(v.Pointer()))
	case reflect.Invalid:
		return append(b, "(0x0,0x0)"...)
	}
	return append(b, v.String()...)
}

func appendHex(b []byte, u uint64) []byte {
	return strconv.AppendUint(append(b, "0x"...), u, 16)
}

// callResults tells, for the operands of print or println, whether they are
// one call of several results (print(f())): then, for each result, whether
// its type is an interface; else nil.
func callResults(operands []*node) []bool {
	if len(operands) != 1 {
		return nil
	}
	c := operands[0]
	var results []bool
	switch {
	case isBinCall(c, c.scope):
		rt := c.child[0].typ.rtype
		for j := 0; j < rt.NumOut(); j++ {
			results = append(results, rt.Out(j).Kind() == reflect.Interface)
		}
	case isRegularCall(c):
		for _, t := range c.child[0].typ.ret {
			results = append(results, t.cat == interfaceT || t.TypeOf() != nil && t.TypeOf().Kind() == reflect.Interface)
		}
	}
	if len(results) < 2 {
		return nil
	}
	return results
}
