package testutil

import (
	"math"
	"reflect"
)

// SameBits tells whether a and b are equal field by field, through
// pointers, each float to its bits: what a lossless round trip keeps. A NaN
// equals any NaN, since JSON's null carries no payload.
func SameBits(a, b any) bool { return sameBits(reflect.ValueOf(a), reflect.ValueOf(b)) }

func sameBits(x, y reflect.Value) bool {
	switch x.Kind() {
	case reflect.Pointer:
		return x.IsNil() == y.IsNil() && (x.IsNil() || sameBits(x.Elem(), y.Elem()))
	case reflect.Struct:
		for i := range x.NumField() {
			if !sameBits(x.Field(i), y.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Float64:
		a, b := x.Float(), y.Float()
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	return x.Interface() == y.Interface()
}
