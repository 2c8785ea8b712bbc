package amqp

// Properties are the basic-class content properties of a message. A
// priority of 0 and an absent priority are the same to the command language
// (AMQP clients commonly cannot send an explicit 0), so HasPriority is only
// kept to tell the two apart when a real client does. The other short-string
// properties are absent when empty, as client libraries send them (an empty
// content-type is not put on the wire).
type Properties struct {
	DeliveryMode  uint8 // 2 = persistent
	Priority      uint8
	HasPriority   bool
	Expiration    string
	HasExpiration bool
	Headers       Table

	ContentType     string
	ContentEncoding string
	CorrelationID   string
	ReplyTo         string
	MessageID       string
	Timestamp       uint64 // seconds since the epoch
	HasTimestamp    bool
	Type            string
	UserID          string
	AppID           string
}

// HasOthers reports whether any property beyond delivery mode and priority
// is set.
func (p *Properties) HasOthers() bool {
	return p.HasExpiration || len(p.Headers) > 0 || p.ContentType != "" || p.ContentEncoding != "" ||
		p.CorrelationID != "" || p.ReplyTo != "" || p.MessageID != "" || p.HasTimestamp ||
		p.Type != "" || p.UserID != "" || p.AppID != ""
}

// Persistent reports whether the message asks to be written to disk.
func (p *Properties) Persistent() bool { return p.DeliveryMode == 2 }

// Reply codes used by the broker in channel.close and connection.close.
const (
	ReplySuccess       = 200
	NoRoute            = 312
	AccessRefused      = 403
	NotFound           = 404
	ResourceLocked     = 405
	PreconditionFailed = 406
	FrameError         = 501
	SyntaxError        = 502
	CommandInvalid     = 503
	ChannelError       = 504
	UnexpectedFrame    = 505
	ResourceError      = 506
	NotAllowed         = 530
	NotImplemented     = 540
	InternalError      = 541
)

var replyNames = map[int]string{
	NoRoute: "NO_ROUTE", AccessRefused: "ACCESS_REFUSED", NotFound: "NOT_FOUND",
	ResourceLocked: "RESOURCE_LOCKED", PreconditionFailed: "PRECONDITION_FAILED",
	FrameError: "FRAME_ERROR", SyntaxError: "SYNTAX_ERROR", CommandInvalid: "COMMAND_INVALID",
	ChannelError: "CHANNEL_ERROR", UnexpectedFrame: "UNEXPECTED_FRAME",
	ResourceError: "RESOURCE_ERROR", NotAllowed: "NOT_ALLOWED",
	NotImplemented: "NOT_IMPLEMENTED", InternalError: "INTERNAL_ERROR",
}

// ReplyName returns the AMQP constant name of a reply code.
func ReplyName(code int) string { return replyNames[code] }

// IsConnectionError reports whether a reply code closes the whole
// connection rather than one channel (the AMQP "hard errors").
func IsConnectionError(code int) bool {
	switch code {
	case FrameError, SyntaxError, CommandInvalid, ChannelError, UnexpectedFrame,
		ResourceError, NotAllowed, NotImplemented, InternalError:
		return true
	}
	return false
}

// Error is an AMQP exception raised by the broker: channel.close or
// connection.close with a reply code and text.
type Error struct {
	Code int
	Text string // without the "NAME - " prefix
}

// Error returns the reply text as the broker sends it ("NOT_FOUND - no queue ...").
func (e *Error) Error() string { return ReplyName(e.Code) + " - " + e.Text }

// Errorf builds an AMQP exception.
func Errorf(code int, text string) *Error { return &Error{Code: code, Text: text} }
