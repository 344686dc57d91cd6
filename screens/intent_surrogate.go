package screens

import "unicode/utf16"

// loneSurrogateEscape reports whether the JSON data holds a \u escape of
// half a UTF-16 surrogate pair without its other half: a decoder reads each
// such escape as U+FFFD, so \ud800, \udfff and \ufffd would read alike.
// Outside strings a backslash is malformed JSON, refused by the decoder
// anyway, so the scan need not track where strings start.
func loneSurrogateEscape(data []byte) bool {
	for i := 0; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		if data[i+1] != 'u' || i+6 > len(data) {
			i++ // \\, \" and the like: the escaped byte is no escape
			continue
		}
		r := hexRune(data[i+2 : i+6])
		i += 5 // at the escape's last digit
		if !utf16.IsSurrogate(r) {
			continue
		}
		if r < 0xDC00 && i+7 <= len(data) && data[i+1] == '\\' && data[i+2] == 'u' {
			if low := hexRune(data[i+3 : i+7]); low >= 0xDC00 && low <= 0xDFFF {
				i += 6 // a whole pair
				continue
			}
		}
		return true
	}
	return false
}

// hexRune reads four hex digits; anything else reads as -1 (no surrogate).
func hexRune(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}
