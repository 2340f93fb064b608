package csvfield

// AppendInt appends n in decimal, the bytes strconv.AppendInt(b, n, 10)
// appends. It writes the digits in place, two at a time: strconv formats into
// a buffer of its own and copies, and the lists write tens of millions of numbers.
func AppendInt(b []byte, n int64) []byte {
	u := uint64(n)
	if n < 0 {
		b = append(b, '-')
		u = -u // two's complement: right for math.MinInt64 too
	}
	switch {
	case u < 10:
		return append(b, byte('0'+u))
	case u < 100:
		return append(b, digitPairs[u*2], digitPairs[u*2+1])
	case u < 1000:
		hi, lo := u/100, u%100*2
		return append(b, byte('0'+hi), digitPairs[lo], digitPairs[lo+1])
	case u < 10000:
		hi, lo := u/100*2, u%100*2
		return append(b, digitPairs[hi], digitPairs[hi+1], digitPairs[lo], digitPairs[lo+1])
	}
	nd := 5
	for p := uint64(100000); nd < 20 && u >= p; p *= 10 {
		nd++
	}
	l := len(b) + nd
	if cap(b) < l {
		b = append(b[:cap(b)], make([]byte, l-cap(b))...)
	}
	b = b[:l]
	i := l
	for u >= 100 {
		d := u % 100 * 2
		u /= 100
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
	}
	if u >= 10 {
		b[i-2], b[i-1] = digitPairs[u*2], digitPairs[u*2+1]
	} else {
		b[i-1] = byte('0' + u)
	}
	return b
}

const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// AppendDigits appends the last width decimal digits of u, zeros in front
// where u has fewer: the decimals of a fixed-point number, two at a time.
func AppendDigits(b []byte, u uint64, width int) []byte {
	l := len(b) + width
	if cap(b) < l {
		b = append(b[:cap(b)], make([]byte, l-cap(b))...)
	}
	b = b[:l]
	i := l
	for ; width >= 2; width -= 2 {
		d := u % 100 * 2
		u /= 100
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
	}
	if width == 1 {
		b[i-1] = byte('0' + u%10)
	}
	return b
}
