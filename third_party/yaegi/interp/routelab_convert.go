package interp

import "reflect"

// routelab patch: a conversion between integer and floating-point types
// sets its destination in place. reflect.Value.Convert allocates its result,
// one allocation per conversion in a loop.

type numKind int

const (
	notNum numKind = iota
	signedNum
	unsignedNum
	floatNum
)

func numKindOf(k reflect.Kind) numKind {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return signedNum
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return unsignedNum
	case reflect.Float32, reflect.Float64:
		return floatNum
	}
	return notNum
}

// convertNumber sets dst, of kind to, to src converted as Go converts
// numbers, and reports whether src was a number it converts.
func convertNumber(dst, src reflect.Value, to numKind) bool {
	switch numKindOf(src.Kind()) {
	case signedNum:
		i := src.Int()
		switch to {
		case signedNum:
			dst.SetInt(i)
		case unsignedNum:
			dst.SetUint(uint64(i))
		case floatNum:
			dst.SetFloat(float64(i))
		}
	case unsignedNum:
		u := src.Uint()
		switch to {
		case signedNum:
			dst.SetInt(int64(u))
		case unsignedNum:
			dst.SetUint(u)
		case floatNum:
			dst.SetFloat(float64(u))
		}
	case floatNum:
		x := src.Float()
		switch to {
		case signedNum:
			dst.SetInt(int64(x))
		case unsignedNum:
			dst.SetUint(uint64(x))
		case floatNum:
			dst.SetFloat(x)
		}
	default:
		return false
	}
	return true
}
