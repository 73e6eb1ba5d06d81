//! The six workloads of Fory's benchmark suite as Fory Rust derive types,
//! with the values of that suite, and the "V2" reader types of its
//! schema-mismatch read (one int32 field widened to int64 per struct).
//! Field lists, tag ids and registration ids follow the upstream Rust
//! benchmark (benchmarks/rust/xlang); bench/schemas/bench.fdl describes the
//! same types for libwire.

use fory::{Error, Fory, ForyEnum, ForyStruct};

pub const LIST_SIZE: usize = 5;

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct NumericStruct {
    #[fory(id = 1)] pub f1: i32,
    #[fory(id = 2)] pub f2: i32,
    #[fory(id = 3)] pub f3: i32,
    #[fory(id = 4)] pub f4: i32,
    #[fory(id = 5)] pub f5: i32,
    #[fory(id = 6)] pub f6: i32,
    #[fory(id = 7)] pub f7: i32,
    #[fory(id = 8)] pub f8: i32,
    #[fory(id = 9)] pub f9: i32,
    #[fory(id = 10)] pub f10: i32,
    #[fory(id = 11)] pub f11: i32,
    #[fory(id = 12)] pub f12: i32,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct NumericStructV2 {
    #[fory(id = 1)] pub f1: i64,
    #[fory(id = 2)] pub f2: i32,
    #[fory(id = 3)] pub f3: i32,
    #[fory(id = 4)] pub f4: i32,
    #[fory(id = 5)] pub f5: i32,
    #[fory(id = 6)] pub f6: i32,
    #[fory(id = 7)] pub f7: i32,
    #[fory(id = 8)] pub f8: i32,
    #[fory(id = 9)] pub f9: i32,
    #[fory(id = 10)] pub f10: i32,
    #[fory(id = 11)] pub f11: i32,
    #[fory(id = 12)] pub f12: i32,
}

// One struct definition per reader version; `$first` is the type of the
// int_value field (i32 for the writer's Sample, i64 for SampleV2).
macro_rules! sample_struct {
    ($name:ident, $first:ty) => {
        #[derive(Debug, Clone, PartialEq, ForyStruct)]
        pub struct $name {
            #[fory(id = 1)] pub int_value: $first,
            #[fory(id = 2)] pub long_value: i64,
            #[fory(id = 3)] pub float_value: f32,
            #[fory(id = 4)] pub double_value: f64,
            #[fory(id = 5)] pub short_value: i32,
            #[fory(id = 6)] pub char_value: i32,
            #[fory(id = 7)] pub boolean_value: bool,
            #[fory(id = 8)] pub int_value_boxed: i32,
            #[fory(id = 9)] pub long_value_boxed: i64,
            #[fory(id = 10)] pub float_value_boxed: f32,
            #[fory(id = 11)] pub double_value_boxed: f64,
            #[fory(id = 12)] pub short_value_boxed: i32,
            #[fory(id = 13)] pub char_value_boxed: i32,
            #[fory(id = 14)] pub boolean_value_boxed: bool,
            #[fory(id = 15, array)] pub int_array: Vec<i32>,
            #[fory(id = 16, array)] pub long_array: Vec<i64>,
            #[fory(id = 17, array)] pub float_array: Vec<f32>,
            #[fory(id = 18, array)] pub double_array: Vec<f64>,
            #[fory(id = 19, array)] pub short_array: Vec<i32>,
            #[fory(id = 20, array)] pub char_array: Vec<i32>,
            #[fory(id = 21, array)] pub boolean_array: Vec<bool>,
            #[fory(id = 22)] pub string: String,
        }
    };
}
sample_struct!(Sample, i32);
sample_struct!(SampleV2, i64);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ForyEnum)]
#[repr(i32)]
pub enum Player {
    #[default]
    Java = 0,
    Flash = 1,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ForyEnum)]
#[repr(i32)]
pub enum Size {
    #[default]
    Small = 0,
    Large = 1,
}

macro_rules! media_struct {
    ($name:ident, $width:ty) => {
        #[derive(Debug, Clone, PartialEq, ForyStruct)]
        pub struct $name {
            #[fory(id = 1)] pub uri: String,
            #[fory(id = 2)] pub title: String,
            #[fory(id = 3)] pub width: $width,
            #[fory(id = 4)] pub height: i32,
            #[fory(id = 5)] pub format: String,
            #[fory(id = 6)] pub duration: i64,
            #[fory(id = 7)] pub size: i64,
            #[fory(id = 8)] pub bitrate: i32,
            #[fory(id = 9)] pub has_bitrate: bool,
            #[fory(id = 10)] pub persons: Vec<String>,
            #[fory(id = 11)] pub player: Player,
            #[fory(id = 12)] pub copyright: String,
        }
    };
}
media_struct!(Media, i32);
media_struct!(MediaV2, i64);

macro_rules! image_struct {
    ($name:ident, $width:ty) => {
        #[derive(Debug, Clone, PartialEq, ForyStruct)]
        pub struct $name {
            #[fory(id = 1)] pub uri: String,
            #[fory(id = 2)] pub title: String,
            #[fory(id = 3)] pub width: $width,
            #[fory(id = 4)] pub height: i32,
            #[fory(id = 5)] pub size: Size,
        }
    };
}
image_struct!(Image, i32);
image_struct!(ImageV2, i64);

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct MediaContent {
    #[fory(id = 1)] pub media: Media,
    #[fory(id = 2)] pub images: Vec<Image>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct MediaContentV2 {
    #[fory(id = 1)] pub media: MediaV2,
    #[fory(id = 2)] pub images: Vec<ImageV2>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct NumericStructList {
    #[fory(id = 1)] pub struct_list: Vec<NumericStruct>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct NumericStructListV2 {
    #[fory(id = 1)] pub struct_list: Vec<NumericStructV2>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct SampleList {
    #[fory(id = 1)] pub sample_list: Vec<Sample>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct SampleListV2 {
    #[fory(id = 1)] pub sample_list: Vec<SampleV2>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct MediaContentList {
    #[fory(id = 1)] pub media_content_list: Vec<MediaContent>,
}

#[derive(Debug, Clone, PartialEq, ForyStruct)]
pub struct MediaContentListV2 {
    #[fory(id = 1)] pub media_content_list: Vec<MediaContentV2>,
}

/// Registration ids (the upstream Rust benchmark's; the Java side of this
/// benchmark and bench.fdl use the same ones).
pub fn register(fory: &mut Fory) -> Result<(), Error> {
    fory.register::<NumericStruct>(1)?;
    fory.register::<Sample>(2)?;
    fory.register::<Media>(3)?;
    fory.register::<Image>(4)?;
    fory.register::<MediaContent>(5)?;
    fory.register::<Player>(6)?;
    fory.register::<Size>(7)?;
    fory.register::<NumericStructList>(8)?;
    fory.register::<SampleList>(9)?;
    fory.register::<MediaContentList>(10)?;
    Ok(())
}

pub fn register_v2(fory: &mut Fory) -> Result<(), Error> {
    fory.register::<NumericStructV2>(1)?;
    fory.register::<SampleV2>(2)?;
    fory.register::<MediaV2>(3)?;
    fory.register::<ImageV2>(4)?;
    fory.register::<MediaContentV2>(5)?;
    fory.register::<Player>(6)?;
    fory.register::<Size>(7)?;
    fory.register::<NumericStructListV2>(8)?;
    fory.register::<SampleListV2>(9)?;
    fory.register::<MediaContentListV2>(10)?;
    Ok(())
}

pub fn numeric_struct() -> NumericStruct {
    NumericStruct {
        f1: -12345,
        f2: 987654321,
        f3: -31415,
        f4: 27182818,
        f5: -32000,
        f6: 1000000,
        f7: -999999999,
        f8: 42,
        f9: 123456789,
        f10: -42,
        f11: 31415926,
        f12: -27182818,
    }
}

pub fn sample() -> Sample {
    Sample {
        int_value: 123,
        long_value: 1230000,
        float_value: 12.345,
        double_value: 1.234567,
        short_value: 12345,
        char_value: '!' as i32,
        boolean_value: true,
        int_value_boxed: 321,
        long_value_boxed: 3210000,
        float_value_boxed: 54.321,
        double_value_boxed: 7.654321,
        short_value_boxed: 32100,
        char_value_boxed: '$' as i32,
        boolean_value_boxed: false,
        int_array: vec![-1234, -123, -12, -1, 0, 1, 12, 123, 1234],
        long_array: vec![-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400],
        float_array: vec![-12.34, -12.3, -12.0, -1.0, 0.0, 1.0, 12.0, 12.3, 12.34],
        double_array: vec![-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234],
        short_array: vec![-1234, -123, -12, -1, 0, 1, 12, 123, 1234],
        char_array: "asdfASDF".chars().map(|c| c as i32).collect(),
        boolean_array: vec![true, false, false, true],
        string: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".to_string(),
    }
}

fn image(uri: &str, title: &str, width: i32, height: i32, size: Size) -> Image {
    Image { uri: uri.to_string(), title: title.to_string(), width, height, size }
}

pub fn media_content() -> MediaContent {
    MediaContent {
        media: Media {
            uri: "http://javaone.com/keynote.ogg".to_string(),
            title: String::new(),
            width: 641,
            height: 481,
            format: "video/theora\u{1234}".to_string(),
            duration: 18000001,
            size: 58982401,
            bitrate: 0,
            has_bitrate: false,
            persons: vec!["Bill Gates, Jr.".to_string(), "Steven Jobs".to_string()],
            player: Player::Flash,
            copyright: "Copyright (c) 2009, Scooby Dooby Doo".to_string(),
        },
        images: vec![
            image("http://javaone.com/keynote_huge.jpg", "Javaone Keynote\u{1234}", 32000,
                  24000, Size::Large),
            image("http://javaone.com/keynote_large.jpg", "", 1024, 768, Size::Large),
            image("http://javaone.com/keynote_small.jpg", "", 320, 240, Size::Small),
        ],
    }
}

pub fn numeric_struct_list() -> NumericStructList {
    NumericStructList { struct_list: (0..LIST_SIZE).map(|_| numeric_struct()).collect() }
}

pub fn sample_list() -> SampleList {
    SampleList { sample_list: (0..LIST_SIZE).map(|_| sample()).collect() }
}

pub fn media_content_list() -> MediaContentList {
    MediaContentList { media_content_list: (0..LIST_SIZE).map(|_| media_content()).collect() }
}

/// What a V2 reader must see: the widened field carries the writer's value.
pub trait Widened {
    type V2;
    fn widened_ok(v2: &Self::V2, v1: &Self) -> bool;
}

impl Widened for NumericStruct {
    type V2 = NumericStructV2;
    fn widened_ok(d: &NumericStructV2, e: &Self) -> bool {
        d.f1 == i64::from(e.f1) && d.f2 == e.f2 && d.f12 == e.f12
    }
}

impl Widened for Sample {
    type V2 = SampleV2;
    fn widened_ok(d: &SampleV2, e: &Self) -> bool {
        d.int_value == i64::from(e.int_value) && d.string == e.string
            && d.double_array == e.double_array
    }
}

fn media_ok(d: &MediaContentV2, e: &MediaContent) -> bool {
    d.media.width == i64::from(e.media.width)
        && d.media.persons == e.media.persons
        && d.images.len() == e.images.len()
        && d.images.iter().zip(&e.images).all(|(a, b)| {
            a.width == i64::from(b.width) && a.title == b.title && a.size == b.size
        })
}

impl Widened for MediaContent {
    type V2 = MediaContentV2;
    fn widened_ok(d: &MediaContentV2, e: &Self) -> bool {
        media_ok(d, e)
    }
}

impl Widened for NumericStructList {
    type V2 = NumericStructListV2;
    fn widened_ok(d: &NumericStructListV2, e: &Self) -> bool {
        d.struct_list.len() == e.struct_list.len()
            && d.struct_list.iter().zip(&e.struct_list).all(|(a, b)| NumericStruct::widened_ok(a, b))
    }
}

impl Widened for SampleList {
    type V2 = SampleListV2;
    fn widened_ok(d: &SampleListV2, e: &Self) -> bool {
        d.sample_list.len() == e.sample_list.len()
            && d.sample_list.iter().zip(&e.sample_list).all(|(a, b)| Sample::widened_ok(a, b))
    }
}

impl Widened for MediaContentList {
    type V2 = MediaContentListV2;
    fn widened_ok(d: &MediaContentListV2, e: &Self) -> bool {
        d.media_content_list.len() == e.media_content_list.len()
            && d.media_content_list.iter().zip(&e.media_content_list).all(|(a, b)| media_ok(a, b))
    }
}
